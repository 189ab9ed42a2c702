import Foundation

extension StorageBackedStudyStore {
    /// Whether `client` may try a sign-in secret at `now` under `limit`: its bucket and the server-wide one, as stored,
    /// both hold a try once refilled. A read: nothing is written.
    public func allowsSignInAttempt(from client: String, under limit: SignInAttemptLimit, at now: Date) async throws -> Bool {
        let scope = limit.scope, client = SignInAttemptLimit.bucketClient(client)
        let (server, bucket) = try await storage.read { reader in
            (try await reader.signInBucket(scope: scope, client: SignInAttemptLimit.serverWide), try await reader.signInBucket(scope: scope, client: client))
        }
        return limit.allowsAttempt(server: server, client: bucket, at: now)
    }

    /// Counts a wrong secret that `client` tried at `now` against its bucket and the server-wide one of `limit`, in one
    /// transaction of conditional writes: failures counted at once by several processes all count.
    public func recordFailedSignInAttempt(from client: String, under limit: SignInAttemptLimit, at now: Date) async throws {
        let scope = limit.scope, client = SignInAttemptLimit.bucketClient(client)
        try await storage.write { writer in
            let server = try await writer.signInBucket(scope: scope, client: SignInAttemptLimit.serverWide)
            let serverAfter = limit.serverBucket(afterFailureIn: server, at: now)
            let bucket = try await writer.signInBucket(scope: scope, client: client)
            if bucket == nil, try await writer.signInClientBucketCount(scope: scope) >= limit.clientLimit {
                // Forget the clients whose buckets have refilled (as good as none); when none has, every one.
                try await writer.deleteSignInClientBuckets(scope: scope, fullBy: now)
                if try await writer.signInClientBucketCount(scope: scope) >= limit.clientLimit {
                    try await writer.deleteSignInClientBuckets(scope: scope, fullBy: nil)
                }
            }
            let bucketAfter = limit.clientBucket(afterFailureIn: bucket, at: now)
            // The transaction read both rows: a write that finds either changed since (never, while the storage
            // serializes its writes) is refused rather than losing the other's failure.
            guard try await writer.replaceSignInBucket(scope: scope, client: SignInAttemptLimit.serverWide, with: serverAfter,
                                                       fullAt: limit.serverFullAt(serverAfter), replacing: server),
                  try await writer.replaceSignInBucket(scope: scope, client: client, with: bucketAfter,
                                                       fullAt: limit.clientFullAt(bucketAfter), replacing: bucket) else {
                throw StudyStorageRowError.changedMeanwhile(table: "signInBucket", key: "\(scope) \(client)")
            }
        }
    }
}
