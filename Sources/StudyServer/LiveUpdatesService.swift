import CareStore
import ServiceLifecycle
import Study

/// Carries every committed care-store write to the participant change feed, as a service of the application's
/// service group: the participants it touched are published at once, and their open pages refresh.
struct LiveUpdatesService: Service {
    let careStore: any CareStore
    let feed: any ParticipantChangeFeed

    func run() async throws {
        for await change in careStore.changes().cancelOnGracefulShutdown() {
            feed.publish(change)
        }
    }
}
