import ChronoCore
@testable import ChronoStore
import Foundation
import Testing

/// The device ID is bound to the machine it enrolled on, so a copied data directory notices it is not
/// that device (issue 20). The decision is pure; the binding never stores the machine ID itself.
@Suite struct SyncMachineBindingTests {
    static let machineA = MachineBinding.binding(machineID: "0123456789abcdef0123456789abcdef")
    static let machineB = MachineBinding.binding(machineID: "fedcba9876543210fedcba9876543210")

    @Test func theDecision() {
        #expect(SyncMachineState.of(stored: Self.machineA, current: Self.machineA) == .sameMachine)
        #expect(SyncMachineState.of(stored: Self.machineA, current: Self.machineB) == .copied)
        #expect(SyncMachineState.of(stored: nil, current: Self.machineB) == .unbound)
        #expect(SyncMachineState.of(stored: Self.machineA, current: nil) == .unknownMachine)
    }

    @Test func theBindingIsADigestOfTheFileNamedByTheSeamElseNothing() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path + "/machine-id"
        try Data("0123456789abcdef0123456789abcdef\n".utf8).write(to: URL(fileURLWithPath: path))
        let binding = try #require(MachineBinding.current(environment: [MachineBinding.pathVariable: path]))
        #expect(binding == Self.machineA && binding.count == 64 && !binding.contains("0123456789abcdef0123456789abcdef"))
        #expect(MachineBinding.current(environment: [MachineBinding.pathVariable: directory.path + "/none"]) == nil)
        try Data("\n".utf8).write(to: URL(fileURLWithPath: path))
        #expect(MachineBinding.current(environment: [MachineBinding.pathVariable: path]) == nil)
    }

    @Test func aCopyOnAnotherMachineBecomesANewDeviceAndForgetsTheOthersKey() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try ChronoStore.openForTest(directory)
        let original = try store.syncDeviceID()
        #expect(try store.syncMachineState(current: Self.machineA) == .unbound)
        try store.saveSyncEnrolment(SyncEnrolment(collectorURL: "http://c:1", deviceKey: "ccd_secret", collectorID: "c", deviceName: "P001",
                                                  enrolledUnixNanoseconds: 1), machineBinding: Self.machineA)
        #expect(try store.syncMachineState(current: Self.machineA) == .sameMachine)
        #expect(try store.syncMachineState(current: Self.machineB) == .copied)
        // Binding again never moves a bound ID to another machine.
        try store.bindSyncDevice(to: Self.machineB)
        #expect(try store.syncMachineState(current: Self.machineB) == .copied)
        let renewed = try store.becomeNewSyncDevice(binding: Self.machineB)
        #expect(renewed != original && CanonicalUUID(renewed) != nil)
        #expect(try store.syncDeviceID() == renewed)
        #expect(try store.syncEnrolment() == nil)
        #expect(try store.syncState().cursor == 0)
        #expect(try store.syncMachineState(current: Self.machineB) == .sameMachine)
        #expect(try store.syncMachineState(current: Self.machineA) == .copied)
    }

    @Test func aStoreEnrolledBeforeBindingsIsBoundAtItsFirstPush() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try ChronoStore.openForTest(directory)
        try store.saveSyncEnrolment(SyncEnrolment(collectorURL: "http://c:1", deviceKey: "k", collectorID: "c", deviceName: "P001",
                                                  enrolledUnixNanoseconds: 1))
        #expect(try store.syncMachineState(current: Self.machineA) == .unbound)
        try store.bindSyncDevice(to: Self.machineA)
        #expect(try store.syncMachineState(current: Self.machineA) == .sameMachine)
    }
}
