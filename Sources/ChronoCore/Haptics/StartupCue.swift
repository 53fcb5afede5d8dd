extension HapticCue {
    /// The cue the daemon plays once when it has started and armed the button: `setupProblem` while the
    /// last first-boot apply left problems (its marker, `FirstBootPlan.Path.problems`, exists), else
    /// `deviceReady`. The daemon only plays it: it still trains either way.
    public static func startup(setupProblems: Bool) -> HapticCue {
        setupProblems ? .setupProblem : .deviceReady
    }
}
