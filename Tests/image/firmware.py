#!/usr/bin/env python3
"""Plays the Raspberry Pi firmware for qemu, which runs none: the one way every image tier prepares and boots a card.

A real Pi's GPU firmware reads the card's FAT partition, picks config.txt (or tryboot.txt for the one boot
after the kernel was restarted with the tryboot flag), follows its conditional sections for the board, and
from there takes the kernel, the initrd, the device tree and the command line, with `os_prefix` put in
front of each. qemu's -M raspi3b starts the kernel directly instead, so this module makes those choices
the same way, copies the chosen files out of the card (mtools, no mount) and builds qemu's command line.
Tests/image/run, first-hour, power-cut, update and benchmarks/image-kernel all boot through it, and the
card's layout comes from image/layout.env alone.

What the firmware does that is modelled here (the config.txt manual, "Conditional filters", "os_prefix",
"tryboot"):
  - config.txt is read top to bottom; a later setting replaces an earlier one; `include FILE` reads
    another file of the partition in place.
  - Sections: [all] ends every filter; a model filter ([pi3], [pi3+], [pi0], [pi02], [pi4]) applies
    until the next model filter or [all]; [tryboot] applies only on a tryboot boot; [none] hides what
    follows. Anything else in brackets is a filter this model does not know, and hides its lines (so a
    card that relies on one is noticed, not silently misread).
  - kernel=, `initramfs FILE followkernel`, cmdline= (default cmdline.txt), device_tree= (default: the
    board's DTB), os_prefix= (put before each of them).
  - The tryboot flag is one-shot: set by `reboot '0 tryboot'` (the kernel prints "Restarting system
    with command '0 tryboot'"), it selects tryboot.txt for the next boot only; a card without
    tryboot.txt boots config.txt.
Not modelled: the firmware's own settings (gpu_mem, dtoverlay, …: qemu emulates one fixed machine) and
a watchdog (the update tier resets a boot that does not confirm itself).

As a command, for the shell tiers:
  firmware.py card IMAGE --cache DIR --into FILE [--size BYTES]
      the card uncompressed once per checksum into DIR (kept), then a sparse copy at FILE grown to a
      power of two at least twice its size (qemu's SD card; room for the data partition to grow), or
      to BYTES; prints the uncompressed card's path
  firmware.py qemu --card FILE --work DIR --console LOG [--machine raspi3b|virt] [--dtb NAME]
                   [--tryboot | --after LOG] [--append TEXT] [--name NAME] [-- QEMU-ARGUMENTS…]
      the boot files into DIR (--tryboot: as after a tryboot restart; --after LOG: when the boot whose
      console LOG is ended with one), then qemu in this process's place (exec: the caller's $! is qemu's pid);
      `--machine virt` boots the same kernel, initrd and root on qemu's generic machine (virtio disk,
      PL011 console) where a network is needed
  firmware.py files --card FILE --work DIR [--dtb NAME] [--tryboot | --after LOG]
      the boot files into DIR, and what was chosen as shell assignments (boot_kernel= boot_initrd=
      boot_dtb= boot_cmdline= boot_config= boot_prefix=), for `eval`
Exit status 66 when the card or a file it names is missing, 64 on a usage error.
"""

import argparse
import glob
import hashlib
import json
import os
import shlex
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", ".."))
DEFAULT_DTB = "bcm2837-rpi-zero-2-w.dtb"      # the wearable's board
TRYBOOT_RESTART = "Restarting system with command '0 tryboot'"
# The model filters each board's DTB answers to (a Zero 2 W is a Zero too, a 3 B+ a 3 too).
MODEL_FILTERS = {
    "bcm2837-rpi-3-b.dtb": {"pi3"},
    "bcm2837-rpi-3-b-plus.dtb": {"pi3", "pi3+"},
    "bcm2837-rpi-zero-2-w.dtb": {"pi0", "pi02"},
    "bcm2711-rpi-4-b.dtb": {"pi4"},
}
KNOWN_MODEL_FILTERS = {"pi0", "pi0w", "pi02", "pi1", "pi2", "pi3", "pi3+", "pi4", "pi400", "pi5", "cm4", "cm5"}


class CardError(Exception):
    """The card, or a file its configuration names, is not there: the message says which."""


def card_layout():
    """The card's layout (image/layout.env, NAME=value lines: its labels and sizes), as scripts/build-image made it."""
    layout = {}
    with open(os.path.join(REPO, "image", "layout.env")) as handle:
        for line in handle:
            line = line.strip()
            if line and not line.startswith("#"):
                name, _, value = line.partition("=")
                layout[name] = value
    return layout


def partitions(card):
    """The card's partitions in order, as (byte offset, bytes) pairs, from its partition table."""
    result = subprocess.run(["sfdisk", "-J", card], text=True, capture_output=True)
    if result.returncode != 0:
        raise CardError(f"{card} has no partition table sfdisk can read: {result.stderr.strip()}")
    table = json.loads(result.stdout)["partitiontable"]
    return [(p["start"] * 512, p["size"] * 512) for p in table["partitions"]]


def fat_image(card):
    """mtools' name of the card's FAT partition (its first)."""
    return f"{card}@@{partitions(card)[0][0]}"


def read_fat(card, name, fat=None):
    """A file of the FAT partition as text, or None when it is not there."""
    result = subprocess.run(["mtype", "-i", fat or fat_image(card), f"::{name}"], capture_output=True)
    if result.returncode != 0:
        return None
    return result.stdout.decode("utf-8", "replace")


def pristine(image, cache):
    """The card uncompressed into `cache`, once per checksum of the file given (an older one is removed)."""
    if not os.path.isfile(image):
        raise CardError(f"no card at {image}: give the .img or .img.xz scripts/build-image made")
    digest = hashlib.sha256()
    with open(image, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    os.makedirs(cache, exist_ok=True)
    path = os.path.join(cache, f"card-{digest.hexdigest()[:16]}.img")
    if not os.path.exists(path):
        for old in glob.glob(os.path.join(cache, "card-*.img")):
            os.remove(old)
        partial = path + ".tmp"
        if image.endswith(".xz"):
            with subprocess.Popen(["xz", "-dc", image], stdout=subprocess.PIPE) as xz:
                subprocess.run(["cp", "--sparse=always", "/dev/stdin", partial], stdin=xz.stdout, check=True)
            if xz.returncode != 0:
                raise CardError(f"xz could not uncompress {image}")
        else:
            subprocess.run(["cp", "--sparse=always", image, partial], check=True)
        os.rename(partial, path)
    return path


def sd_card(source, target, size=None, room=2):
    """A sparse copy of `source` at `target`, grown to `size` bytes or to the power of two at least `room`
    times its size (qemu's SD card must be a power of two; the rest is room for the data partition to grow).
    Returns the size."""
    subprocess.run(["cp", "--reflink=auto", "--sparse=always", source, target], check=True)
    if size is None:
        size = 1
        while size < os.path.getsize(target) * room:
            size *= 2
    os.truncate(target, size)
    return size


def tryboot_requested(console_text):
    """Whether the boot whose console this is ended with `reboot '0 tryboot'` (the next boot reads tryboot.txt)."""
    return TRYBOOT_RESTART in console_text


class BootFiles:
    """What the firmware chose for one boot: the configuration file read, the prefix, and the kernel,
    initrd and DTB (paths of copies in the work folder) and the command line (text); `names`: each one's
    path on the FAT partition (kernel, initrd, dtb, cmdline)."""

    def __init__(self, config, prefix, kernel, initrd, dtb, cmdline, names=None):
        self.config, self.prefix = config, prefix
        self.kernel, self.initrd, self.dtb, self.cmdline = kernel, initrd, dtb, cmdline
        self.names = names or {}

    def shell(self):
        return "".join(f"boot_{name}={shlex.quote(value or '')}\n" for name, value in
                       (("config", self.config), ("prefix", self.prefix), ("kernel", self.kernel),
                        ("initrd", self.initrd), ("dtb", self.dtb), ("cmdline", self.cmdline)))


def settings(text, board_filters, tryboot, read_file, depth=0):
    """The settings a config file gives this board on this boot, in order (later ones win), as
    (name, value) pairs: the conditional sections followed, `include` read in place."""
    model, tryboot_only, hidden = None, False, False
    chosen = []
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("[") and line.endswith("]"):
            name = line[1:-1].strip()
            if name == "all":
                model, tryboot_only, hidden = None, False, False
            elif name == "none":
                hidden = True
            elif name == "tryboot":
                tryboot_only = True
            elif name in KNOWN_MODEL_FILTERS:
                model = name
            else:
                hidden = True
            continue
        if hidden or (model is not None and model not in board_filters) or (tryboot_only and not tryboot):
            continue
        if line.startswith("include "):
            included = read_file(line.split(None, 1)[1].strip())
            if included is not None and depth < 8:
                chosen.extend(settings(included, board_filters, tryboot, read_file, depth + 1))
            continue
        if line.startswith("initramfs "):
            chosen.append(("initramfs", line.split()[1]))
            continue
        name, equals, value = line.partition("=")
        if equals:
            chosen.append((name.strip(), value.strip()))
    return chosen


def choose(card, work, dtb=DEFAULT_DTB, tryboot=False):
    """The firmware's choice for one boot of `card` as the board `dtb` names, the files copied into `work`."""
    fat = fat_image(card)
    text = read_fat(card, "tryboot.txt", fat) if tryboot else None
    config_name = "tryboot.txt" if text is not None else "config.txt"
    if text is None:
        text = read_fat(card, config_name, fat)
    if text is None:
        raise CardError(f"{card}: the FAT partition has no {config_name}, so a Pi would not boot it")
    values = dict(settings(text, MODEL_FILTERS.get(dtb, set()), tryboot, lambda name: read_fat(card, name, fat)))
    prefix = values.get("os_prefix", "")
    kernel = values.get("kernel")
    if not kernel:
        raise CardError(f"{card}: {config_name} names no kernel= for this board ({dtb})")
    names = {"kernel": prefix + kernel, "dtb": prefix + values.get("device_tree", dtb),
             "cmdline": prefix + values.get("cmdline", "cmdline.txt")}
    if values.get("initramfs"):
        names["initrd"] = prefix + values["initramfs"]
    os.makedirs(work, exist_ok=True)
    copies = {}
    for role, name in names.items():
        copy = os.path.join(work, f"boot-{role}-{os.path.basename(name)}")
        result = subprocess.run(["mcopy", "-n", "-o", "-i", fat, f"::{name}", copy], capture_output=True, text=True)
        if result.returncode != 0:
            raise CardError(f"{card}: {config_name} names {name} ({role}), which is not on the FAT partition")
        copies[role] = copy
    with open(copies.pop("cmdline")) as handle:
        cmdline = " ".join(handle.read().split())
    return BootFiles(config_name, prefix, copies["kernel"], copies.get("initrd"), copies["dtb"], cmdline, names)


def qemu_command(card, files, console, machine="raspi3b", append="", name=None, memory="1G", extra=()):
    """qemu's command line for one boot of `card` with the firmware's `files`, the serial console into `console`.

    raspi3b: the Pi 3's own SoC, its SD card, the real device tree; the console is the mini UART (serial
    1, ttyS1). virt: the same kernel, initrd and root on qemu's generic machine (a Cortex-A53, 2 cores),
    the card as a virtio disk, the console on its PL011 (ttyAMA0), for what needs a network."""
    cmdline = f"{files.cmdline} {append}".strip()
    command = ["qemu-system-aarch64"]
    if name:
        command += ["-name", name]
    if machine == "raspi3b":
        command += ["-M", "raspi3b", "-m", memory, "-accel", "tcg,thread=multi", "-display", "none", "-no-reboot",
                    "-kernel", files.kernel, "-dtb", files.dtb]
        command += ["-drive", f"file={card},if=sd,format=raw", "-serial", "null", "-serial", f"file:{console}"]
    elif machine == "virt":
        cmdline = cmdline.replace("console=ttyS1,", "console=ttyAMA0,")
        command += ["-M", "virt", "-cpu", "cortex-a53", "-smp", "2", "-m", memory, "-accel", "tcg,thread=multi",
                    "-display", "none", "-no-reboot", "-kernel", files.kernel]
        command += ["-drive", f"file={card},if=none,format=raw,id=card", "-device", "virtio-blk-pci,drive=card",
                    "-serial", f"file:{console}"]
    else:
        raise ValueError(f"unknown machine {machine}")
    if files.initrd:
        command += ["-initrd", files.initrd]
    if "-monitor" not in extra:
        command += ["-monitor", "none"]
    return command + ["-append", cmdline] + list(extra)


def main(argv):
    parser = argparse.ArgumentParser(prog="firmware.py", add_help=False)
    sub = parser.add_subparsers(dest="command")
    card_parser = sub.add_parser("card", add_help=False)
    card_parser.add_argument("image")
    card_parser.add_argument("--cache", required=True)
    card_parser.add_argument("--into", required=True)
    card_parser.add_argument("--size", type=int)
    for name in ("qemu", "files"):
        one = sub.add_parser(name, add_help=False)
        one.add_argument("--card", required=True)
        one.add_argument("--work", required=True)
        one.add_argument("--dtb", default=DEFAULT_DTB)
        one.add_argument("--tryboot", action="store_true")
        one.add_argument("--after")
        if name == "qemu":
            one.add_argument("--console", required=True)
            one.add_argument("--machine", choices=("raspi3b", "virt"), default="raspi3b")
            one.add_argument("--append", default="")
            one.add_argument("--name")
    extra = []
    if "--" in argv:
        extra = argv[argv.index("--") + 1:]
        argv = argv[:argv.index("--")]
    try:
        args = parser.parse_args(argv)
    except SystemExit:
        print("firmware.py: usage: firmware.py card|qemu|files … (Tests/image/firmware.py's opening comment says more)", file=sys.stderr)
        return 64
    if args.command is None:
        print(__doc__.strip())
        return 64
    try:
        if args.command == "card":
            uncompressed = pristine(os.path.abspath(args.image), args.cache)
            sd_card(uncompressed, args.into, args.size)
            print(uncompressed)
            return 0
        tryboot = args.tryboot
        if args.after and os.path.exists(args.after):
            with open(args.after, "rb") as previous:
                tryboot = tryboot or tryboot_requested(previous.read().decode("utf-8", "replace"))
        files = choose(args.card, args.work, args.dtb, tryboot)
        if args.command == "files":
            sys.stdout.write(files.shell())
            return 0
        command = qemu_command(args.card, files, args.console, args.machine, args.append, args.name, extra=extra)
        os.execvp(command[0], command)
    except CardError as problem:
        print(f"firmware.py: {problem}", file=sys.stderr)
        return 66


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
