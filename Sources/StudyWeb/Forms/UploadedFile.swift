import Foundation

/// A file posted with a step form (`multipart/form-data`), for a file question.
public struct UploadedFile: Hashable, Sendable {
    /// The file's name as the browser sent it, such as `knee.jpg`; nil when none was given.
    public var fileName: String?
    /// The media type the browser gave, such as `image/jpeg`; `application/octet-stream` when none.
    public var contentType: String
    /// The file's bytes.
    public var data: Data

    /// Creates an uploaded file; see the properties for each part.
    public init(fileName: String?, contentType: String, data: Data) {
        self.fileName = fileName
        self.contentType = contentType
        self.data = data
    }
}
