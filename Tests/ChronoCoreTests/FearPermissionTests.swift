import Testing
import ChronoCore

@Suite("One Fear rule: the opt-in, and what a Fear request becomes without it")
struct FearPermissionTests {
    @Test("Allowed by --i-understand-fear-mode or the fear-mode setting, either one")
    func optIn() {
        #expect(FearPermission(optIn: false, settingOn: false).allowed == false)
        #expect(FearPermission(optIn: true, settingOn: false).allowed == true)
        #expect(FearPermission(optIn: false, settingOn: true).allowed == true)
        #expect(FearPermission(optIn: true, settingOn: true).allowed == true)
    }

    @Test("Without the opt-in: Fear named is refused, Fear from defaults runs as Challenge; other modes as asked")
    func withoutOptIn() {
        let refused = FearPermission(optIn: false, settingOn: false)
        #expect(refused.allowsByName(.fear) == false)
        #expect(refused.allowsByName(.challenge) == true)
        #expect(refused.allowsByName(.passive) == true)
        #expect(refused.mode(fromDefaults: .fear) == .challenge)
        #expect(refused.mode(fromDefaults: .challenge) == .challenge)
        #expect(refused.mode(fromDefaults: .passive) == .passive)
    }

    @Test("With the opt-in every mode runs as asked")
    func withOptIn() {
        let allowed = FearPermission(allowed: true)
        #expect(allowed.allowsByName(.fear) == true)
        #expect(allowed.mode(fromDefaults: .fear) == .fear)
        #expect(allowed.mode(fromDefaults: .passive) == .passive)
    }
}
