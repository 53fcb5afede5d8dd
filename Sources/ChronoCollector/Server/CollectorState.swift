import ChronoAPI
import Foundation

/// What the collector's routes share: the store, the configuration, the enrolment rate limit.
final class CollectorState: Sendable {
    let store: any CollectorStore
    let configuration: CollectorServerConfiguration
    let enrolmentLimit: EnrolmentRateLimit

    init(store: any CollectorStore, configuration: CollectorServerConfiguration) {
        self.store = store
        self.configuration = configuration
        self.enrolmentLimit = EnrolmentRateLimit(perAddress: configuration.refusedEnrolmentsPerMinutePerAddress,
                                                 overall: configuration.refusedEnrolmentsPerMinute)
    }
}
