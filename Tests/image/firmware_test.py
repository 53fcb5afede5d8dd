#!/usr/bin/env python3
"""The firmware model's own checks (Tests/image/firmware.py), on small cards made here with sfdisk,
mkfs.fat and mtools: which configuration file, section, prefix and files a boot takes; and the card's
boot backend for RAUC (image/rootfs/usr/lib/chronoception-image/rauc-tryboot) on a folder, with the boots
the firmware would make from what it wrote. Tests/image/run runs them before it boots anything;
`python3 Tests/image/firmware_test.py` runs them alone (seconds)."""

import os
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import firmware  # noqa: E402

FAT_START_SECTOR = 8192       # 4 MiB in, as the card's ALIGN_MIB puts it


def make_card(folder, files):
    """A card of one FAT partition holding `files` (name: text); names with a slash get their folder."""
    card = os.path.join(folder, "card.img")
    with open(card, "wb") as handle:
        handle.truncate(48 << 20)
    subprocess.run(["sfdisk", "-q", card], input=f"start={FAT_START_SECTOR}, type=c\n", text=True, check=True)
    sectors = (48 << 20) // 512 - FAT_START_SECTOR
    subprocess.run(["mkfs.fat", "-F", "32", "--offset", str(FAT_START_SECTOR), card, str(sectors // 2)],
                   check=True, capture_output=True)
    fat = f"{card}@@{FAT_START_SECTOR * 512}"
    for name, text in files.items():
        if "/" in name:
            subprocess.run(["mmd", "-D", "s", "-i", fat, "::" + os.path.dirname(name)], capture_output=True)
        source = os.path.join(folder, "source")
        with open(source, "w") as handle:
            handle.write(text)
        subprocess.run(["mcopy", "-o", "-i", fat, source, "::" + name], check=True)
    return card


def contents(path):
    with open(path) as handle:
        return handle.read()


SLOTS = {
    # The A/B shape: each slot's boot files under its own folder, config.txt naming slot A, tryboot.txt B.
    "config.txt": "[pi4]\nkernel=pi4-only\n[all]\narm_64bit=1\nos_prefix=slot-a/\nkernel=vmlinuz\ninitramfs initrd.img followkernel\n",
    "tryboot.txt": "[all]\nos_prefix=slot-b/\nkernel=vmlinuz\ninitramfs initrd.img followkernel\n",
    "slot-a/vmlinuz": "kernel A", "slot-a/initrd.img": "initrd A", "slot-a/cmdline.txt": "root=LABEL=A ro\n",
    "slot-a/bcm2837-rpi-zero-2-w.dtb": "dtb A",
    "slot-b/vmlinuz": "kernel B", "slot-b/initrd.img": "initrd B", "slot-b/cmdline.txt": "root=LABEL=B\n ro\n",
    "slot-b/bcm2837-rpi-zero-2-w.dtb": "dtb B",
}


class FirmwareChoice(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()
        self.addCleanup(self.folder.cleanup)
        self.work = os.path.join(self.folder.name, "work")

    def card(self, files):
        return make_card(self.folder.name, files)

    def test_a_normal_boot_reads_config_txt_and_its_prefix(self):
        files = firmware.choose(self.card(SLOTS), self.work)
        self.assertEqual((files.config, files.prefix), ("config.txt", "slot-a/"))
        self.assertEqual([contents(p) for p in (files.kernel, files.initrd, files.dtb)], ["kernel A", "initrd A", "dtb A"])
        self.assertEqual(files.cmdline, "root=LABEL=A ro")

    def test_a_tryboot_boot_reads_tryboot_txt(self):
        files = firmware.choose(self.card(SLOTS), self.work, tryboot=True)
        self.assertEqual((files.config, files.prefix), ("tryboot.txt", "slot-b/"))
        self.assertEqual([contents(p) for p in (files.kernel, files.initrd, files.dtb)], ["kernel B", "initrd B", "dtb B"])
        self.assertEqual(files.cmdline, "root=LABEL=B ro")

    def test_without_tryboot_txt_a_tryboot_boot_reads_config_txt(self):
        only_a = {name: text for name, text in SLOTS.items() if name != "tryboot.txt"}
        self.assertEqual(firmware.choose(self.card(only_a), self.work, tryboot=True).prefix, "slot-a/")

    def test_model_sections_follow_the_board_and_later_settings_win(self):
        card = self.card({"config.txt": "kernel=first\n[pi3]\nkernel=three\n[pi02]\nkernel=zero2\n[all]\ninitramfs rd followkernel\n",
                          "first": "", "three": "", "zero2": "", "rd": "", "cmdline.txt": "x",
                          "bcm2837-rpi-3-b.dtb": "", "bcm2837-rpi-zero-2-w.dtb": "", "bcm2711-rpi-4-b.dtb": ""})
        chosen = {dtb: os.path.basename(firmware.choose(card, self.work, dtb=dtb).kernel)
                  for dtb in ("bcm2837-rpi-3-b.dtb", "bcm2837-rpi-zero-2-w.dtb", "bcm2711-rpi-4-b.dtb")}
        self.assertEqual(chosen, {"bcm2837-rpi-3-b.dtb": "boot-kernel-three", "bcm2837-rpi-zero-2-w.dtb": "boot-kernel-zero2",
                                  "bcm2711-rpi-4-b.dtb": "boot-kernel-first"})

    def test_a_tryboot_section_applies_on_a_tryboot_boot_only(self):
        card = self.card({"config.txt": "kernel=old\n[tryboot]\nkernel=new\n[all]\n", "old": "", "new": "", "cmdline.txt": "",
                          "bcm2837-rpi-zero-2-w.dtb": ""})
        self.assertEqual(os.path.basename(firmware.choose(card, self.work).kernel), "boot-kernel-old")
        self.assertEqual(os.path.basename(firmware.choose(card, self.work, tryboot=True).kernel), "boot-kernel-new")

    def test_include_unknown_filters_and_none(self):
        card = self.card({"config.txt": "include extra.txt\n[gpio4=1]\nkernel=hidden\n[all]\n[none]\nkernel=never\n",
                          "extra.txt": "kernel=included\ncmdline=args.txt\n", "included": "", "args.txt": "quiet",
                          "bcm2837-rpi-zero-2-w.dtb": ""})
        files = firmware.choose(card, self.work)
        self.assertEqual((os.path.basename(files.kernel), files.initrd, files.cmdline), ("boot-kernel-included", None, "quiet"))

    def test_a_missing_file_is_named(self):
        broken = dict(SLOTS)
        del broken["slot-b/initrd.img"]
        with self.assertRaisesRegex(firmware.CardError, r"tryboot.txt names slot-b/initrd.img \(initrd\), which is not on the FAT partition"):
            firmware.choose(self.card(broken), self.work, tryboot=True)

    def test_the_tryboot_flag_comes_from_the_previous_boot_s_console(self):
        self.assertTrue(firmware.tryboot_requested("[ 81.2] reboot: Restarting system with command '0 tryboot'\n"))
        self.assertFalse(firmware.tryboot_requested("[ 81.2] reboot: Restarting system\n"))
        self.assertFalse(firmware.tryboot_requested("[ 81.2] reboot: Power down\n"))


BACKEND = os.path.join(firmware.REPO, "image", "rootfs", "usr", "lib", "chronoception-image", "rauc-tryboot")
# A card's FAT partition as scripts/build-image lays it out (the top, slot A's folder) plus slot B's folder
# as an install leaves it, before the switch.
CARD = {
    "config.txt": "[pi4]\nmax_framebuffers=2\n[all]\narm_64bit=1\nkernel=vmlinuz\ninitramfs initrd.img followkernel\n\n[all]\nos_prefix=slot-a/\n",
    "slot-a/vmlinuz": "kernel 0.1.0", "slot-a/initrd.img": "initrd 0.1.0", "slot-a/cmdline.txt": "root=PARTUUID=c4120ce0-02 ro",
    "slot-a/bcm2837-rpi-zero-2-w.dtb": "dtb 0.1.0",
    "slot-b/vmlinuz": "kernel 0.2.0", "slot-b/initrd.img": "initrd 0.2.0", "slot-b/cmdline.txt": "root=PARTUUID=c4120ce0-03 ro",
    "slot-b/bcm2837-rpi-zero-2-w.dtb": "dtb 0.2.0",
}


class BootBackend(unittest.TestCase):
    """RAUC's custom boot backend: tryboot.txt first, config.txt only once the new slot confirms."""

    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()
        self.addCleanup(self.folder.cleanup)
        self.boot = os.path.join(self.folder.name, "boot")
        for name, text in CARD.items():
            os.makedirs(os.path.join(self.boot, os.path.dirname(name)), exist_ok=True)
            with open(os.path.join(self.boot, name), "w") as handle:
                handle.write(text)
        self.cmdline = os.path.join(self.folder.name, "cmdline")
        self.env = dict(os.environ, CHRONOCEPTION_LAYOUT=os.path.join(firmware.REPO, "image", "layout.env"),
                        CHRONOCEPTION_BOOT_DIR=self.boot, CHRONOCEPTION_SLOT_STATE=os.path.join(self.folder.name, "data", "slots-bad"),
                        CHRONOCEPTION_CMDLINE=self.cmdline)

    def backend(self, *arguments, status=0):
        result = subprocess.run([BACKEND, *arguments], env=self.env, capture_output=True, text=True)
        self.assertEqual(result.returncode, status, result.stderr)
        return result.stdout.strip() if status == 0 else result.stderr.strip()

    def boots(self):
        """The kernels the firmware would start: on the next normal boot, and on a tryboot boot."""
        card = make_card(os.path.join(self.folder.name), {
            os.path.relpath(os.path.join(root, name), self.boot): contents(os.path.join(root, name))
            for root, _, names in os.walk(self.boot) for name in names})
        work = os.path.join(self.folder.name, "work")
        return (contents(firmware.choose(card, work).kernel), contents(firmware.choose(card, work, tryboot=True).kernel))

    def test_a_flashed_card_boots_a_and_b_is_bad_until_installed(self):
        del_b = [name for name in CARD if name.startswith("slot-b/")]
        for name in del_b:
            os.remove(os.path.join(self.boot, name))
        self.assertEqual((self.backend("get-primary"), self.backend("get-state", "A"), self.backend("get-state", "B")), ("A", "good", "bad"))
        self.assertIn("slot B has no boot files", self.backend("set-primary", "B", status=1))
        self.assertFalse(os.path.exists(os.path.join(self.boot, "tryboot.txt")))

    def test_set_primary_writes_tryboot_txt_only(self):
        self.backend("set-primary", "B")
        self.assertEqual(self.backend("get-primary"), "B")
        self.assertEqual(self.boots(), ("kernel 0.1.0", "kernel 0.2.0"))   # config.txt still A: a failed try falls back
        self.assertIn("os_prefix=slot-a/", contents(os.path.join(self.boot, "config.txt")))
        self.assertEqual(contents(os.path.join(self.boot, "tryboot.txt")), CARD["config.txt"].replace("os_prefix=slot-a/", "os_prefix=slot-b/"))

    def test_mark_good_on_the_new_slot_switches_config_txt(self):
        self.backend("set-primary", "B")
        self.backend("set-state", "B", "good")
        self.assertEqual(self.boots(), ("kernel 0.2.0", "kernel 0.2.0"))
        self.assertFalse(os.path.exists(os.path.join(self.boot, "tryboot.txt")))
        self.assertEqual((self.backend("get-primary"), self.backend("get-state", "A")), ("B", "good"))

    def test_a_slot_marked_bad_is_not_tried_again_and_the_booted_one_cannot_be(self):
        self.backend("set-primary", "B")
        self.backend("set-state", "B", "bad")
        self.assertEqual((self.backend("get-primary"), self.backend("get-state", "B")), ("A", "bad"))
        self.assertEqual(self.boots(), ("kernel 0.1.0", "kernel 0.1.0"))
        self.assertIn("is the one config.txt boots", self.backend("set-state", "A", "bad", status=1))
        self.backend("set-primary", "B")                      # a new install clears the mark
        self.assertEqual(self.backend("get-state", "B"), "good")

    def test_set_primary_of_the_booted_slot_withdraws_a_pending_try(self):
        self.backend("set-primary", "B")
        self.backend("set-primary", "A")
        self.assertFalse(os.path.exists(os.path.join(self.boot, "tryboot.txt")))

    def test_the_booted_slot_comes_from_the_command_line(self):
        for cmdline, slot in (("console=ttyS1,115200 root=PARTUUID=c4120ce0-02 ro", "A"), ("root=PARTUUID=c4120ce0-03 ro", "B"),
                              ("rauc.slot=B root=/dev/mmcblk0p2", "B")):
            with open(self.cmdline, "w") as handle:
                handle.write(cmdline + "\n")
            self.assertEqual(self.backend("get-current"), slot, cmdline)
        with open(self.cmdline, "w") as handle:
            handle.write("root=/dev/sda1\n")
        self.assertIn("names no slot", self.backend("get-current", status=1))

    def test_unknown_commands_and_slots_are_refused(self):
        self.assertIn("unknown command", self.backend("switch", status=1))
        self.assertIn("no slot 'C'", self.backend("get-state", "C", status=1))
        self.assertIn("needs good or bad", self.backend("set-state", "B", "maybe", status=1))


class QemuCommand(unittest.TestCase):
    FILES = firmware.BootFiles("config.txt", "", "/w/k", "/w/i", "/w/d", "console=ttyS1,115200 root=LABEL=R ro")

    def test_raspi3b_boots_the_sd_card_with_the_device_tree(self):
        command = firmware.qemu_command("/c.img", self.FILES, "/w/console", append="chronoception.test=1", name="vm")
        self.assertEqual(command, ["qemu-system-aarch64", "-name", "vm", "-M", "raspi3b", "-m", "1G", "-accel", "tcg,thread=multi",
                                   "-display", "none", "-no-reboot", "-kernel", "/w/k", "-dtb", "/w/d",
                                   "-drive", "file=/c.img,if=sd,format=raw", "-serial", "null", "-serial", "file:/w/console",
                                   "-initrd", "/w/i", "-monitor", "none",
                                   "-append", "console=ttyS1,115200 root=LABEL=R ro chronoception.test=1"])

    def test_virt_moves_the_console_to_the_pl011_and_keeps_a_given_monitor(self):
        command = firmware.qemu_command("/c.img", self.FILES, "/w/console", machine="virt", extra=["-monitor", "unix:/m,server,nowait"])
        self.assertIn("console=ttyAMA0,115200 root=LABEL=R ro", command)
        self.assertEqual(command.count("-monitor"), 1)
        self.assertIn("virtio-blk-pci,drive=card", command)
        self.assertNotIn("-dtb", command)


if __name__ == "__main__":
    unittest.main(verbosity=1)
