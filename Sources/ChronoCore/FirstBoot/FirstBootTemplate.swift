/// The first-boot file as the image ships it on its boot partition: every key with a comment, empty
/// values (an empty value is no value), Windows line ends so Notepad shows its lines on any version.
/// `chronoception first-boot template` prints it; a test reads it back with no problem.
public enum FirstBootTemplate {
    /// The template with `\n` line ends; `crlf` turns them into `\r\n` for the FAT partition.
    public static let text = """
        # Chronoception: settings applied on first boot (docs/FIRST-BOOT.md).
        #
        # Edit this file on any computer after flashing the card: write a value after "=", save, put
        # the card in the device and switch it on. Lines starting with # are comments. An empty value
        # means "not given". When the device is ready it gives one long buzz; five quick ticks before
        # the buzz mean something here was wrong. It is reported (on the serial console, in the journal
        # and in /var/lib/chronoception/first-boot.txt) and the device still boots and trains offline.
        # The Wi-Fi passphrase and SSH keys are removed from this file once applied.

        # Wi-Fi: your country's two-letter code (GB, US, DE, FR ...), the network's name and its
        # passphrase (8 to 63 characters, or the 64 hex digits of its key). Put the value in double
        # quotes if it starts or ends with a space. Open networks are not supported.
        wifi_country =
        wifi_ssid =
        wifi_passphrase =

        # The device's name on the network: letters, digits and hyphens (default: chronoception, so
        # the companion's page is at http://chronoception.local:8737/ when it listens on the network).
        hostname =

        # The board: raspberry-pi-zero-2w, raspberry-pi-4b ... or auto (default: detected from the
        # device tree).
        board =

        # The time zone, as Region/City: Europe/London, America/New_York ... (default: UTC).
        timezone =

        # SSH stays off unless a public key is given here: paste the whole line of your .pub file
        # (ssh-ed25519 AAAA... you@computer), one key per ssh_key line. There is no password login.
        ssh_key =

        # The companion web page and API on the network (on or off; default off: this device only).
        # When on, every request from the network needs a key: pair a phone from the page, approving
        # it with a long press on the device's button.
        companion_network = off

        """

    /// `text` with Windows line ends, as written to the FAT partition.
    public static var crlf: String {
        String(text.unicodeScalars.flatMap { $0 == "\n" ? ["\r", "\n"] : [$0] }.map(Character.init))
    }
}
