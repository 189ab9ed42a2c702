import Foundation
import Synchronization

/// Random bytes from the system's secure source, fetched 4 KiB at a time, so that a UUID costs one copy rather
/// than a system call. Each byte is handed out once.
final class SecureRandomPool: Sendable {
    static let shared = SecureRandomPool()
    private static let size = 4096

    private struct State {
        var buffer = [UInt8](repeating: 0, count: SecureRandomPool.size)
        var position = SecureRandomPool.size
    }
    private let state = Mutex(State())

    /// `count` fresh random bytes.
    func bytes(_ count: Int) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(count)
        while result.count < count {
            let chunk = next16()
            withUnsafeBytes(of: chunk) { result.append(contentsOf: $0.prefix(count - result.count)) }
        }
        return result
    }

    /// Sixteen fresh random bytes.
    func next16() -> uuid_t {
        state.withLock { state in
            if state.position + 16 > Self.size {
                Self.fill(&state.buffer)
                state.position = 0
            }
            defer { state.position += 16 }
            return state.buffer.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: state.position, as: uuid_t.self) }
        }
    }

    #if canImport(Glibc)
    /// The kernel's random source, opened once for the life of the process (nil when it cannot be opened).
    ///
    /// `/dev/urandom` does not wait for the kernel's generator to be seeded, which on kernels before 5.18 matters
    /// early in a machine's first boot (when a server makes its web secret). The standard library's generator reads
    /// with `getrandom`, which does wait; one value from it first means the generator is seeded before any byte is
    /// read here, and it stays seeded.
    private static let urandom: Int32? = {
        var seeded = SystemRandomNumberGenerator()
        _ = seeded.next()
        let source = open("/dev/urandom", O_RDONLY | O_CLOEXEC)
        return source >= 0 ? source : nil
    }()
    #endif

    private static func fill(_ buffer: inout [UInt8]) {
        #if canImport(Glibc)
        if let source = urandom {
            let filled = buffer.withUnsafeMutableBytes { bytes -> Bool in
                var offset = 0
                while offset < bytes.count {
                    let count = read(source, bytes.baseAddress! + offset, bytes.count - offset)
                    if count < 0 && errno == EINTR { continue }
                    guard count > 0 else { return false }
                    offset += count
                }
                return true
            }
            if filled { return }
        }
        #endif
        // Elsewhere (and should the read fail), the standard library's secure generator, 8 bytes at a time.
        var generator = SystemRandomNumberGenerator()
        buffer.withUnsafeMutableBytes { bytes in
            for offset in stride(from: 0, to: bytes.count, by: 8) {
                bytes.storeBytes(of: generator.next() as UInt64, toByteOffset: offset, as: UInt64.self)
            }
        }
    }
}
