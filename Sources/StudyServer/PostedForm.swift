import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import Research
import StudyWeb

/// A form a browser posted: its fields by name, and its files when it came as `multipart/form-data` (a step with a
/// file question). Read with the body limits of ``StudyRouter``; a body of another type, or one that cannot be read,
/// is refused with a page saying what was wrong.
struct PostedForm: Sendable {
    /// The fields, by name; a name posted several times keeps every value in order.
    var fields: [String: [String]]
    /// The files, by field name.
    var files: [String: UploadedFile]

    /// The largest form body accepted without a file (a signature with many strokes fits easily).
    static let maximumBody = 1 << 20

    /// Reads an `application/x-www-form-urlencoded` body of at most ``maximumBody`` and `extra` bytes.
    static func fields(of request: Request, extra: Int = 0) async throws -> [String: [String]] {
        let contentType = request.headers[.contentType]
        if let contentType, !FormBody.isURLEncoded(contentType: contentType) { throw FormBody.wrongContentType(contentType) }
        let body = try await request.body.collect(upTo: maximumBody + extra)
        if contentType == nil, body.readableBytes > 0 { throw FormBody.wrongContentType(nil) }
        return try FormBody.fields(String(buffer: body))
    }

    /// Reads a form, with its files when it is posted as `multipart/form-data`; such a body may be as large as the
    /// largest file the route accepts (`largestFile`, asked only for a multipart post) with a margin, plus
    /// ``maximumBody`` for the rest. A form that says it is larger than ``maximumBody`` (its `Content-Length`) may be
    /// larger by what `largestFile` allows: an active step that records many readings (a walk's sensors) allows twice
    /// its samples' limit, since a form's encoding at most about doubles a samples document.
    static func read(_ request: Request, largestFile: () async throws -> Int) async throws -> PostedForm {
        let contentType = request.headers[.contentType] ?? ""
        guard let boundary = FormBody.multipartBoundary(contentType: contentType) else {
            if FormBody.isMultipart(contentType: contentType) {
                throw StudyServerError.malformed("The form was sent as multipart/form-data without its boundary.")
            }
            // Asked only of a large form, so that every other post reads nothing more.
            let length = request.headers[.contentLength].flatMap { Int($0) } ?? 0
            let extra = length > maximumBody ? try await largestFile() : 0
            return PostedForm(fields: try await fields(of: request, extra: extra), files: [:])
        }
        // The largest file and as much again (at most 10 MB more), so that a file somewhat too large still reaches its
        // question and gets its message.
        let largest = try await largestFile()
        let body = try await request.body.collect(upTo: largest + min(largest, FileFormat.defaultMaximumBytes) + maximumBody)
        let (fields, files) = try FormBody.multipart(body, boundary: boundary)
        return PostedForm(fields: fields, files: files)
    }
}
