/// The Learn content (SPEC §8): a short overview of the modes, how to read the numbers, and an FAQ.
/// One source for `chronoception learn` and, later, the companion's Learn page, so the two never
/// drift apart. Plain text with `#` headings, readable as it is and easy to turn into HTML.
public enum LearnText {
    /// The sections in reading order.
    public static let sections: [(title: String, body: String)] = [
        ("What this is", """
            Chronoception trains and measures your sense of elapsed time. You guess when an interval has \
            passed; the device tells you at once how far off you were. Training happens on the device \
            (a button and a vibration motor); this program also keeps your history, shows your progress \
            and exports your data.
            """),
        ("The modes", """
            Challenge — press to start an attempt, press again when you think the interval has elapsed. \
            You get immediate feedback: early or late, by how much, and a zone (green, yellow, red). \
            A session has one or more attempts (default 1).

            Fear — Challenge with a consequence: after an attempt that is off by the fear threshold or \
            more (default 10 %), an unpleasant sound plays. Opt-in only (`chronoception settings set \
            fear-mode on`). If sound cannot be heard, the device says so and the session counts as \
            "sound not effective".

            Passive — no taps. The motor plays the interval's own pattern H(I) at every interval \
            boundary, so you feel what 5 minutes is. Choose how many repetitions (for example 3, 6 or \
            12). A long press ends the session early.

            Reproduction — the device presents the interval: a short vibration at its start and one at \
            its end. Then you reproduce it: press once to start, once more when the same time has \
            passed. Presses while the interval is presented do not count. The feedback is Challenge's; \
            the ratio says how long your reproduction was (1.05 is 5 % too long). The task timing \
            research uses most, and the one studies run with feedback off.

            A long press (1.5 s by default) during Challenge, Fear or Reproduction asks to discard the session; a \
            second long press within a few seconds discards it, a tap carries on.
            """),
        ("Reading the numbers", """
            Error — how far your tap was from the target: positive is late, negative is early. Durations \
            are shown as 45s or 1m 5s.

            Zones — green below 5 % of the interval, yellow from 5 % to below 15 %, red from 15 %.

            Typical error — the mean absolute error of your attempts. Progress compares the last 7 days \
            with the 7 days before: "Improving" when it fell by more than 10 %, "Worse" when it rose by \
            more than 10 %, otherwise "About the same".

            Bias — the mean signed error: a positive bias means you tend to tap late.

            Spread — the standard deviation of your signed errors: how consistent you are.

            Time Acuity — one number from 0 to 100: 100 × (1 − mean absolute percent error / 50 %), \
            clamped. 5 % off scores 90, 10 % scores 80, 25 % scores 50, 50 % or more scores 0.

            Sparklines — one bar per day; a blank is a day without attempts, never a zero.
            """),
        ("The health log", """
            Each completed session is written as one Mindful Session record to a JSON Lines file (the \
            Linux stand-in for Apple Health), with the session's numbers as metadata. Aborted and \
            interrupted sessions are never written. If the file cannot be written the session is still \
            kept and shown; logging stops until you run `chronoception health enable`, and \
            `chronoception health backfill` then writes what is owed, each record once. While the wall \
            clock is not synchronised (a Raspberry Pi has no battery clock), records wait and are written \
            with corrected times once it is.
            """),
        ("FAQ", """
            Why does my score differ between sessions of the same interval? Time sense varies with \
            attention, tiredness and mood; look at the trend over a week, not at one session.

            Should I count in my head? You can, but the point is to sharpen the feeling itself. Try \
            sessions with and without counting and compare.

            Which interval should I train? Start with the built-in 5m 0s. Every interval you use becomes \
            a preset; the device offers presets in order of how often and how recently you used them.

            Does a late tap count? Yes. Every tap counts, however early or late, and is stored exactly.

            What happens if the device loses power mid-session? The session is marked interrupted, never \
            logged to health, and the next start says "Previous session ended unexpectedly."

            Where is my data? In one SQLite file in your data directory (`--data-dir`, or \
            ~/.local/share/chronoception; /var/lib/chronoception for the service). `chronoception export \
            csv` and `chronoception export health` export it; `chronoception delete-all` deletes it \
            (the health log file stays). Nothing leaves the machine unless you export it or set up a \
            companion.
            """),
    ]

    /// All sections as one text for a terminal.
    public static var text: String {
        sections.map { "# \($0.title)\n\n\($0.body)\n" }.joined(separator: "\n")
    }
}
