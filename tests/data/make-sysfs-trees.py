#!/usr/bin/env python3
# Rebuilds tests/data/sysfs-*/: fake sysfs/proc trees laid out as the kernel does
# (real directories, relative symlinks) for a USB SSD, an NVMe drive, an SD card, a loop.
import os, shutil, sys

HERE = os.path.dirname(os.path.abspath(__file__))


def put(root, rel, text):
    p = os.path.join(root, rel)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    with open(p, "w") as f:
        f.write(text)


def link(root, rel, target_rel):
    """Symlink root/rel -> root/target_rel, written relative as sysfs does."""
    p = os.path.join(root, rel)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    os.symlink(os.path.relpath(os.path.join(root, target_rel), os.path.dirname(p)), p)


def disk(root, devdir, name, majmin, sectors, rot, lbs, pbs, parts=()):
    d = f"{devdir}/{name}"
    put(root, f"{d}/dev", f"{majmin[0]}:{majmin[1]}\n")
    put(root, f"{d}/size", f"{sectors}\n")
    put(root, f"{d}/queue/rotational", f"{rot}\n")
    put(root, f"{d}/queue/logical_block_size", f"{lbs}\n")
    put(root, f"{d}/queue/physical_block_size", f"{pbs}\n")
    link(root, f"sys/class/block/{name}", d)
    link(root, f"sys/dev/block/{majmin[0]}:{majmin[1]}", d)
    for i, (pname, psectors) in enumerate(parts, 1):
        pd = f"{d}/{pname}"
        put(root, f"{pd}/partition", f"{i}\n")
        put(root, f"{pd}/dev", f"{majmin[0]}:{majmin[1] + i}\n")
        put(root, f"{pd}/size", f"{psectors}\n")
        link(root, f"sys/class/block/{pname}", pd)
        link(root, f"sys/dev/block/{majmin[0]}:{majmin[1] + i}", pd)
    return d


def host(root, hostname, kernel, cpuinfo, mem_kb, online):
    put(root, "proc/sys/kernel/hostname", hostname + "\n")
    put(root, "proc/sys/kernel/osrelease", kernel + "\n")
    put(root, "proc/cpuinfo", cpuinfo)
    put(root, "proc/meminfo", f"MemTotal:       {mem_kb} kB\nMemFree:         123456 kB\n")
    put(root, "sys/devices/system/cpu/online", online + "\n")
    put(root, "etc/os-release",
        'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nNAME="Debian GNU/Linux"\nID=debian\n')


def arm_cpuinfo(parts, model):
    out = ""
    for i, part in enumerate(parts):
        out += (f"processor\t: {i}\nBogoMIPS\t: 108.00\nFeatures\t: fp asimd evtstrm crc32 cpuid\n"
                f"CPU implementer\t: 0x41\nCPU architecture: 8\nCPU variant\t: 0x0\n"
                f"CPU part\t: {part}\nCPU revision\t: 3\n\n")
    return out + f"Revision\t: c03114\nSerial\t\t: 10000000abcdef01\nModel\t\t: {model}\n"


def power(root, dev, control, status, delay_ms=None):
    # Runtime PM attributes (Documentation/ABI/testing/sysfs-devices-power).
    put(root, f"{dev}/power/control", control + "\n")
    put(root, f"{dev}/power/runtime_status", status + "\n")
    if delay_ms is not None:
        put(root, f"{dev}/power/autosuspend_delay_ms", f"{delay_ms}\n")


def usb(root, driver="uas", speed="5000"):
    # Raspberry Pi 4: VL805 xHCI on PCIe, SanDisk Extreme 55AE on a USB 3 port via UAS
    # (or, driver usb-storage, a USB 2 stick on bulk-only transport).
    host(root, "pi4", "6.6.31+rpt-rpi-v8", arm_cpuinfo(["0xd08"] * 4, "Raspberry Pi 4 Model B Rev 1.4"),
         3884240, "0-3")
    put(root, "proc/device-tree/model", "Raspberry Pi 4 Model B Rev 1.4\0")
    xhci = "sys/devices/platform/scb/fd500000.pcie/pci0000:00/0000:00:00.0/0000:01:00.0"
    put(root, f"{xhci}/current_link_speed", "5.0 GT/s PCIe\n")
    put(root, f"{xhci}/current_link_width", "1\n")
    hub = f"{xhci}/usb2"
    for k, v in {"idVendor": "1d6b", "idProduct": "0003", "speed": "5000",
                 "manufacturer": "Linux 6.6.31+rpt-rpi-v8 xhci-hcd", "product": "xHCI Host Controller"}.items():
        put(root, f"{hub}/{k}", v + "\n")
    dev = f"{hub}/2-2"
    for k, v in {"idVendor": "0781", "idProduct": "55ae", "speed": speed,
                 "manufacturer": "SanDisk", "product": "Extreme 55AE"}.items():
        put(root, f"{dev}/{k}", v + "\n")
    power(root, dev, "auto", "active", 2000)
    os.makedirs(os.path.join(root, f"sys/bus/usb/drivers/{driver}"), exist_ok=True)
    link(root, f"{dev}/2-2:1.0/driver", f"sys/bus/usb/drivers/{driver}")
    scsi = f"{dev}/2-2:1.0/host0/target0:0:0/0:0:0:0"
    put(root, f"{scsi}/vendor", "SanDisk \n")
    put(root, f"{scsi}/model", "Extreme 55AE    \n")
    d = disk(root, f"{scsi}/block", "sda", (8, 0), 1953525168, 0, 512, 4096,
             [("sda1", 1953523120)])
    link(root, f"{d}/device", scsi)


def nvme(root):
    # Raspberry Pi 5: NVMe HAT on the external PCIe port forced to Gen3 x1.
    host(root, "pi5", "6.6.31+rpt-rpi-2712", arm_cpuinfo(["0xd0b"] * 4, "Raspberry Pi 5 Model B Rev 1.0"),
         8257536, "0-3")
    put(root, "sys/firmware/devicetree/base/model", "Raspberry Pi 5 Model B Rev 1.0\0")
    link(root, "proc/device-tree", "sys/firmware/devicetree/base")
    port = "sys/devices/platform/axi/1000110000.pcie/pci0001:00/0001:00:00.0"
    put(root, f"{port}/current_link_speed", "8.0 GT/s PCIe\n")
    put(root, f"{port}/max_link_speed", "8.0 GT/s PCIe\n")
    put(root, f"{port}/current_link_width", "1\n")
    put(root, f"{port}/max_link_width", "1\n")
    ep = f"{port}/0001:01:00.0"
    for k, v in {"vendor": "0x144d", "device": "0xa80a", "current_link_speed": "8.0 GT/s PCIe",
                 "max_link_speed": "16.0 GT/s PCIe", "current_link_width": "1",
                 "max_link_width": "4"}.items():
        put(root, f"{ep}/{k}", v + "\n")
    power(root, ep, "auto", "active")
    put(root, "sys/module/nvme_core/parameters/default_ps_max_latency_us", "100000\n")
    ctrl = f"{ep}/nvme/nvme0"
    put(root, f"{ctrl}/model", "Samsung SSD 980 PRO 1TB                 \n")
    put(root, f"{ctrl}/firmware_rev", "5B2QGXA7\n")
    # the nvme driver's hwmon chip sits under the controller (temp1 = composite, m°C)
    put(root, f"{ctrl}/hwmon3/name", "nvme\n")
    put(root, f"{ctrl}/hwmon3/temp1_input", "41850\n")
    link(root, "sys/class/nvme/nvme0", ctrl)
    d = disk(root, ctrl, "nvme0n1", (259, 0), 1953525168, 0, 512, 512,
             [("nvme0n1p1", 1048576), ("nvme0n1p2", 1952474112)])
    link(root, f"{d}/device", ctrl)


def mmc(root):
    # Raspberry Pi 4 SD slot (emmc2) with a SanDisk 64 GB card.
    host(root, "pi4sd", "6.1.0-rpi7-rpi-v8", arm_cpuinfo(["0xd08"] * 4, "Raspberry Pi 4 Model B Rev 1.5"),
         1893520, "0-3")
    put(root, "proc/device-tree/model", "Raspberry Pi 4 Model B Rev 1.5\0")
    card = "sys/devices/platform/emmc2bus/fe340000.mmc/mmc_host/mmc0/mmc0:aaaa"
    for k, v in {"cid": "035344534336344780012345ab016600", "name": "SC64G",
                 "manfid": "0x000003", "oemid": "0x5344", "date": "06/2022",
                 "serial": "0x012345ab", "type": "SD", "fwrev": "0x0", "hwrev": "0x8",
                 "ssr": ssr(speed_class=4, uhs=3, video=30, app=2)}.items():
        put(root, f"{card}/{k}", v + "\n")
    power(root, card, "auto", "active")
    d = disk(root, f"{card}/block", "mmcblk0", (179, 0), 124735488, 0, 512, 512,
             [("mmcblk0p1", 1048576), ("mmcblk0p2", 123686912)])
    link(root, f"{d}/device", card)


def ssr(speed_class, uhs, video, app):
    # The SD Status register as the kernel's `ssr` attribute prints it: 16 words, bit 511
    # first. Fields at their bits (SD Physical Layer Simplified Spec, "SD Status"):
    # DAT_BUS_WIDTH 511:510 (2 = 4 bits), SPEED_CLASS 447:440, AU_SIZE 431:428,
    # UHS_SPEED_GRADE 399:396, UHS_AU_SIZE 395:392, VIDEO_SPEED_CLASS 391:384,
    # APP_PERF_CLASS 339:336, DISCARD_SUPPORT 313.
    v = 2 << 510 | speed_class << 440 | 9 << 428 | uhs << 396 | 9 << 392 | video << 384
    v |= app << 336 | 1 << 313
    return f"{v:0128x}"


def emmc(root, life="0x01 0x02", pre_eol="0x01"):
    # An Odroid-style board's soldered 64 GB eMMC 5.1, lightly worn (type B 10-20 %), or
    # worn out: type A 90-100 %, type B past its estimate, pre-EOL urgent.
    host(root, "sbc", "6.1.0-odroid-arm64", arm_cpuinfo(["0xd05"] * 4, "Hardkernel ODROID-M1"),
         3884240, "0-3")
    put(root, "proc/device-tree/model", "Hardkernel ODROID-M1\0")
    card = "sys/devices/platform/fe310000.mmc/mmc_host/mmc1/mmc1:0001"
    for k, v in {"cid": "450100444134303634a1b2c3d4e5f600", "name": "DA4064",
                 "manfid": "0x000045", "oemid": "0x0100", "date": "03/2021",
                 "serial": "0xa1b2c3d4", "type": "MMC", "rev": "0x8",
                 "life_time": life, "pre_eol_info": pre_eol, "prv": "0x6"}.items():
        put(root, f"{card}/{k}", v + "\n")
    power(root, card, "on", "active")
    d = disk(root, f"{card}/block", "mmcblk1", (179, 32), 122142720, 0, 512, 512,
             [("mmcblk1p1", 122140672)])
    link(root, f"{d}/device", card)


def loop(root):
    # An x86 laptop (DMI names it) testing a loop device over an image file.
    cpu = ""
    for i in range(8):
        cpu += (f"processor\t: {i}\nvendor_id\t: GenuineIntel\n"
                f"model name\t: 11th Gen Intel(R) Core(TM) i7-1165G7 @ 2.80GHz\n\n")
    host(root, "laptop", "6.1.0-26-amd64", cpu, 16069024, "0-7")
    put(root, "sys/class/dmi/id/sys_vendor", "LENOVO\n")
    put(root, "sys/class/dmi/id/product_name", "20XW004GUS\n")
    d = disk(root, "sys/devices/virtual/block", "loop3", (7, 3), 2097152, 1, 512, 512)
    put(root, f"{d}/loop/backing_file", "/var/tmp/sd-image.img\n")
    put(root, f"{d}/loop/dio", "1\n")


TREES = [("usb", usb), ("usbbot", lambda r: usb(r, "usb-storage", "480")), ("nvme", nvme),
         ("mmc", mmc), ("emmc", emmc), ("emmcworn", lambda r: emmc(r, "0x0A 0x0B", "0x03")),
         ("loop", loop)]
for name, fn in TREES:
    root = os.path.join(HERE, f"sysfs-{name}")
    shutil.rmtree(root, ignore_errors=True)
    fn(root)
print("rebuilt", ", ".join(f"sysfs-{n}" for n, _ in TREES), file=sys.stderr)
