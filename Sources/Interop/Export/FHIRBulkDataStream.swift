import Foundation

/// Writes an export's resources into a folder as they come, in ``FHIRBulkDataWriter``'s layout: each resource appended
/// to its type's NDJSON file, each Bundle written to its own file at once, so that memory holds one participant's
/// resources however large the study.
///
/// ```swift
/// let stream = FHIRBulkDataStream(folder: out)
/// try stream.append(resources, bundle: bundle)   // for each participant
/// let counts = try stream.finish()               // ["Patient": 3, …]
/// ```
public final class FHIRBulkDataStream {
    /// The folder written into; it must exist.
    public let folder: URL
    private var files: [String: FileHandle] = [:]
    private var counts: [String: Int] = [:]
    private var madeBundleFolder = false

    /// A stream into `folder`.
    public init(folder: URL) {
        self.folder = folder
    }

    deinit {
        for file in files.values { try? file.close() }
    }

    /// Appends `resources` to their types' NDJSON files (in the order given), and writes `bundle` to its own file.
    /// File system errors are thrown as they come, naming the file.
    public func append(_ resources: [FHIRResource], bundle: FHIRResource? = nil) throws {
        var lines: [String: String] = [:]
        var order: [String] = []
        for resource in resources {
            if lines[resource.resourceType] == nil { order.append(resource.resourceType) }
            lines[resource.resourceType, default: ""] += resource.json.serialized() + "\n"
            counts[resource.resourceType, default: 0] += 1
        }
        for type in order {
            try file(of: type).write(contentsOf: Data(lines[type, default: ""].utf8))
        }
        if let bundle {
            let bundleFolder = folder.appendingPathComponent(FHIRBulkDataWriter.bundleFolderName, isDirectory: true)
            if !madeBundleFolder {
                try FileManager.default.createDirectory(at: bundleFolder, withIntermediateDirectories: true)
                madeBundleFolder = true
            }
            try Data((bundle.json.serialized(pretty: true) + "\n").utf8)
                .write(to: bundleFolder.appendingPathComponent("\(bundle.id).json"), options: .atomic)
        }
    }

    /// Closes the files; returns how many resources of each type were written.
    public func finish() throws -> [String: Int] {
        for (type, file) in files {
            do { try file.close() } catch { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path(of: type)]) }
        }
        files = [:]
        return counts
    }

    private func path(of type: String) -> String { folder.appendingPathComponent("\(type).ndjson").path }

    private func file(of type: String) throws -> FileHandle {
        if let file = files[type] { return file }
        guard FileManager.default.createFile(atPath: path(of: type), contents: nil) else {
            throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: path(of: type)])
        }
        let file = try FileHandle(forWritingTo: URL(fileURLWithPath: path(of: type)))
        files[type] = file
        return file
    }
}
