#!/usr/bin/env python3
# Generates the golden result files (JSON + intervals.csv + samples.csv) from a device model.
# Hand-made data, not a measurement: each device's throughput and power levels are chosen
# from the field notes; the figures in the JSON are computed from the generated samples
# exactly as the energy module defines them, so charts, compare and size see a consistent set.
import json, math, os, random

HERE = os.path.dirname(os.path.abspath(__file__))
MIB = 1048576
T0 = 5_000_000_000_000

# name, context.device, meter, (period_ms, volts), idle_w, per job: (bw_Bps, iops_for_rnd, active_w, tail_s, tail_w)
DEVICES = [
    dict(stem="sd-sandisk-ultra", meter=dict(spec="ina219:/dev/i2c-1@0x40", driver="ina219", model="INA219"),
         period_ms=100, volts=3.30, idle_w=0.066,
         device={"name": "mmcblk0", "model": "SC64G", "vendor": "SanDisk", "transport": "mmc",
                 "rotational": False, "size_bytes": 63864569856, "logical_block_size": 512,
                 "physical_block_size": 512, "usb": None, "pcie": None,
                 "mmc": {"type": "SD", "name": "SC64G", "timing": "uhs-sdr104"}, "loop": None},
         jobs={"SEQ1M-Q8T1-read": (23.9e6, 0.36, 0.3, 0.07), "SEQ1M-Q8T1-write": (25.4e6, 0.42, 2.0, 0.12),
               "RND4K-Q32T1-read": (2900 * 4096, 0.30, 0.3, 0.07), "RND4K-Q32T1-write": (520 * 4096, 0.40, 3.0, 0.15)}),
    dict(stem="usbstick-sandisk-ultra", meter=dict(spec="um25c:/dev/rfcomm0", driver="um25c", model="UM25C"),
         period_ms=250, volts=5.08, idle_w=0.152,
         device={"name": "sda", "model": "Ultra", "vendor": "SanDisk", "transport": "usb",
                 "rotational": False, "size_bytes": 32015679488, "logical_block_size": 512,
                 "physical_block_size": 512,
                 "usb": {"speed": "480M", "vid_pid": "0781:5581", "manufacturer": "SanDisk",
                         "product": "Ultra", "bridge_vid_pid": None},
                 "pcie": None, "mmc": None, "loop": None},
         jobs={"SEQ1M-Q8T1-read": (34.5e6, 0.45, 0.3, 0.152), "SEQ1M-Q8T1-write": (13.6e6, 0.50, 4.0, 0.30),
               "RND4K-Q32T1-read": (3600 * 4096, 0.43, 0.3, 0.152), "RND4K-Q32T1-write": (170 * 4096, 0.48, 4.0, 0.30)},
         cliff=("SEQ1M-Q8T1-write", 0.35, 3.2)),
    dict(stem="usbssd-samsung-t7", meter=dict(spec="um34c:/dev/rfcomm1", driver="um34c", model="UM34C"),
         period_ms=100, volts=5.05, idle_w=0.35,
         device={"name": "sdb", "model": "Portable SSD T7", "vendor": "Samsung", "transport": "usb",
                 "rotational": False, "size_bytes": 500107862016, "logical_block_size": 512,
                 "physical_block_size": 512,
                 "usb": {"speed": "5000M", "vid_pid": "04e8:4001", "manufacturer": "Samsung",
                         "product": "PSSD T7", "bridge_vid_pid": "04e8:4001"},
                 "pcie": None, "mmc": None, "loop": None},
         jobs={"SEQ1M-Q8T1-read": (372e6, 2.10, 0.8, 0.5), "SEQ1M-Q8T1-write": (335e6, 2.70, 3.0, 0.9),
               "RND4K-Q32T1-read": (11000 * 4096, 1.60, 0.5, 0.5), "RND4K-Q32T1-write": (10000 * 4096, 1.90, 2.0, 0.7)},
         undervoltage="SEQ1M-Q8T1-write"),
    dict(stem="nvme-netac", meter=dict(spec="ina226:/dev/i2c-1@0x45", driver="ina226", model="INA226"),
         period_ms=20, volts=3.31, idle_w=0.52,
         device={"name": "nvme0n1", "model": "Netac NVMe SSD 128GB", "vendor": "", "transport": "nvme",
                 "rotational": False, "size_bytes": 128035676160, "logical_block_size": 512,
                 "physical_block_size": 512, "usb": None,
                 "pcie": {"current_link_speed": "5.0 GT/s PCIe", "current_link_width": 1,
                          "max_link_speed": "8.0 GT/s PCIe", "max_link_width": 4},
                 "mmc": None, "loop": None},
         jobs={"SEQ1M-Q8T1-read": (401e6, 1.65, 0.6, 0.7), "SEQ1M-Q8T1-write": (352e6, 2.05, 2.5, 1.1),
               "RND4K-Q32T1-read": (41000 * 4096, 1.55, 0.5, 0.7), "RND4K-Q32T1-write": (30000 * 4096, 1.80, 1.5, 0.9)}),
]
JOBS = [("SEQ1M-Q8T1-read", "read", MIB, 8, 1024 * MIB), ("SEQ1M-Q8T1-write", "write", MIB, 8, 1024 * MIB),
        ("RND4K-Q32T1-read", "randread", 4096, 32, 128 * MIB), ("RND4K-Q32T1-write", "randwrite", 4096, 32, 128 * MIB)]
IDLE_S = 2.0
PCTS = ["1.000000", "5.000000", "10.000000", "50.000000", "90.000000", "99.000000", "99.900000", "99.990000"]
PCT_MULT = [0.55, 0.65, 0.72, 1.0, 1.5, 3.2, 7.5, 14.0]


def ns(t):
    return T0 + int(round(t * 1e9))


def trapezoid(samples, a, b):
    """Energy (J), charge (C), volt-seconds and span over [a, b] from (t, v, i, w) samples."""
    e = c = vs = span = 0.0
    for (t1, v1, i1, w1), (t2, v2, i2, w2) in zip(samples, samples[1:]):
        lo, hi = max(t1, a), min(t2, b)
        if hi <= lo:
            continue
        def at(t, x1, x2):
            return x1 + (x2 - x1) * (t - t1) / (t2 - t1)
        dt = hi - lo
        e += dt * (at(lo, w1, w2) + at(hi, w1, w2)) / 2
        c += dt * (at(lo, i1, i2) + at(hi, i1, i2)) / 2
        vs += dt * (at(lo, v1, v2) + at(hi, v1, v2)) / 2
        span += dt
    return e, c, vs, span


def gen(dev):
    rnd = random.Random(dev["stem"])
    period = dev["period_ms"] / 1000.0
    t = 0.0
    power_at = []   # (t_start, t_end, fn(t) -> W)
    jobs = []
    intervals = []
    events = []
    for name, rw, bs, qd, size in JOBS:
        bw, act_w, tail_s, tail_w = dev["jobs"][name]
        idle = (t, t + IDLE_S)
        cliff = dev.get("cliff")
        if cliff and cliff[0] == name:
            # cache cliff: fast until the SLC cache is full, then the native speed
            fast_bytes = size * cliff[1]
            fast_s = fast_bytes / (bw * cliff[2])
            slow_s = (size - fast_bytes) / (bw * 0.75)
            act_s = fast_s + slow_s
        else:
            fast_s, act_s = 0, size / bw
        act = (idle[1], idle[1] + act_s)
        tail = (act[1], act[1] + tail_s)
        power_at.append((idle[0], idle[1], dev["idle_w"]))
        power_at.append((act[0], act[1], act_w))
        power_at.append((tail[0], tail[1], tail_w))
        # per-interval I/O (1 s, the last one shorter)
        s = act[0]
        while s < act[1] - 1e-9:
            e = min(s + 1.0, act[1])
            rate = bw * cliff[2] if cliff and cliff[0] == name and s - act[0] < fast_s else (
                bw * 0.75 if cliff and cliff[0] == name else bw)
            rate *= 1 + rnd.uniform(-0.04, 0.04)
            iops = rate / bs
            rd = not rw.endswith("write")
            intervals.append((name, ns(s), ns(e), iops if rd else 0, int(rate) if rd else 0,
                              0 if rd else iops, 0 if rd else int(rate)))
            s = e
        jobs.append(dict(name=name, rw=rw, bs=bs, qd=qd, size=size, idle=idle, act=act, tail=tail))
        t = tail[1]
    # samples over the whole run
    samples = []
    n = int(t / period) + 2
    for k in range(n):
        ts = k * period
        w = dev["idle_w"]
        for a, b, pw in power_at:
            if a <= ts < b:
                w = pw
        w *= 1 + rnd.uniform(-0.03, 0.03)
        v = dev["volts"] * (1 + rnd.uniform(-0.004, 0.004))
        samples.append([ts, v, w / v, w])
    uv = dev.get("undervoltage")
    for j in jobs:
        if j["name"] == uv:
            # the USB SSD pulls the 5 V rail down mid-write: board flags undervoltage
            a = j["act"][0] + (j["act"][1] - j["act"][0]) * 0.4
            b = a + 0.35
            for smp in samples:
                if a <= smp[0] < b:
                    smp[1] = 4.58
                    smp[2] = smp[3] / smp[1]
            j["events"] = [
                {"t_ns": ns(a), "t_end_ns": 0, "kind": "undervoltage", "source": "kmsg",
                 "text": "hwmon hwmon1: Undervoltage detected!"},
                {"t_ns": ns(b), "t_end_ns": 0, "kind": "undervoltage_end", "source": "kmsg",
                 "text": "hwmon hwmon1: Voltage normalised"}]
    out_jobs = []
    for j in jobs:
        bw, act_w, tail_s, tail_w = dev["jobs"][j["name"]]
        act_s = j["act"][1] - j["act"][0]
        ea, ca, va, _ = trapezoid(samples, *j["act"])
        et, _, _, _ = trapezoid(samples, *j["tail"])
        ei, _, _, si = trapezoid(samples, *j["idle"])
        idle_w = ei / si
        ios = j["size"] // j["bs"]
        iops = ios / act_s
        bwb = j["size"] / act_s
        net = ea + et - idle_w * (act_s + tail_s)
        gb = j["size"] / 1e9
        act_ma = ca / act_s * 1000
        n_act = sum(1 for s in samples if j["act"][0] <= s[0] < j["act"][1])
        min_v = min(s[1] for s in samples if j["act"][0] <= s[0] < j["act"][1])
        lat_mean = j["qd"] / iops * 1e9
        rd = not j["rw"].endswith("write")
        pct = {p: int(lat_mean * m) for p, m in zip(PCTS, PCT_MULT)}
        io = {"io_bytes": j["size"], "bw_bytes": int(bwb), "iops": round(iops, 3), "total_ios": ios,
              "runtime": int(round(act_s * 1000)),
              "clat_ns": {"min": int(lat_mean * 0.4), "max": int(lat_mean * 30), "mean": round(lat_mean, 1),
                          "stddev": round(lat_mean * 0.6, 1), "percentile": pct}}
        zero = {"io_bytes": 0, "bw_bytes": 0, "iops": 0, "total_ios": 0, "runtime": 0,
                "clat_ns": {"min": 0, "max": 0, "mean": 0, "stddev": 0, "percentile": {}}}
        reasons = []
        if n_act < 20:
            reasons.append("%d samples in the active phase (< 20)" % n_act)
        evs = j.get("events", [])
        if evs:
            reasons.append("undervoltage at %.1f s" % ((evs[0]["t_ns"] - T0) / 1e9))
        power = {"meter": dev["meter"]["spec"], "idle_w": round(idle_w, 4), "active_w": round(ea / act_s, 4),
                 "active_ma": round(act_ma, 2), "peak_ma": round(max(s[2] for s in samples if j["act"][0] <= s[0] < j["act"][1]) * 1000, 1),
                 "active_v": round(va / act_s, 4), "min_v": round(min_v, 3),
                 "energy_active_j": round(ea, 4), "energy_active_mwh": round(ea / 3.6, 4),
                 "energy_tail_j": round(et, 4), "energy_tail_mwh": round(et / 3.6, 4),
                 "energy_net_j": round(net, 4), "charge_mah": round(ca / 3.6, 4)}
        eff = {"iops_per_ma": round(iops / act_ma, 4), "iops_per_w": round(iops / (ea / act_s), 3),
               "mbps_per_w": round(bwb / 1e6 / (ea / act_s), 3), "j_per_gb": round(ea / gb, 3),
               "j_per_gb_net": round(net / gb, 3), "uj_per_io": round(ea * 1e6 / ios, 2),
               "uah_per_io": round(ca / 3.6e-3 / ios, 5), "uah_per_mb": round(ca / 3.6e-3 / (j["size"] / 1e6), 4)}
        validity = {"valid": not reasons, "coverage": 0.998, "samples_active": n_act, "reasons": reasons}
        out_jobs.append({
            "jobname": j["name"], "loop": 1, "status": "ok", "error": None,
            "options": {"rw": j["rw"], "bs": j["bs"], "iodepth": j["qd"], "size": j["size"], "direct": 1,
                        "ioengine": "libaio", "numjobs": 1},
            "read": io if rd else zero, "write": zero if rd else io,
            "phases": {"idle": {"t_start_ns": ns(j["idle"][0]), "t_end_ns": ns(j["idle"][1])},
                       "active": {"t_start_ns": ns(j["act"][0]), "t_end_ns": ns(j["act"][1])},
                       "tail": {"t_start_ns": ns(j["tail"][0]), "t_end_ns": ns(j["tail"][1])}},
            "power": power, "efficiency": eff, "validity": validity,
            "meters": [{"spec": dev["meter"]["spec"], "power": power, "efficiency": eff, "validity": validity}],
            "events": evs,
            "temperatures": {"soc_c": {"start": 48.0, "end": 50.5, "max": 51.0},
                             "drive_c": {"start": None, "end": None, "max": None}}})
    stem = dev["stem"]
    doc = {"schema_version": 1, "tool": {"name": "iowatt", "version": "0.1.0"},
           "created": "2026-11-29T20:00:00Z", "command": "iowatt run quick --target /mnt/test",
           "profile": "configs/quick.ini", "status": "ok", "t0_ns": T0, "emulated": False,
           "context": {"host": {"hostname": "pi5", "board": "Raspberry Pi 5 Model B Rev 1.0",
                                "kernel": "6.6.31+rpt-rpi-2712", "os": "Debian GNU/Linux 12 (bookworm)",
                                "cpu": "Cortex-A76", "cpus": 4, "memory_bytes": 8455716864},
                       "device": dev["device"],
                       "filesystem": {"type": "ext4", "mount_point": "/mnt/test", "source": "/dev/" + dev["device"]["name"],
                                      "mount_options": "rw,noatime"},
                       "target": {"path": "/mnt/test/iowatt-1234.tmp", "kind": "file", "created": True}},
           "meters": [dict(dev["meter"], emulated=False, manual=False, period_ms=dev["period_ms"],
                           samples=len(samples), frames_bad=0, gaps=0, reconnects=0)],
           "files": {"intervals": stem + ".intervals.csv", "samples": stem + ".samples.csv"},
           "jobs": out_jobs}
    with open(os.path.join(HERE, stem + ".json"), "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    with open(os.path.join(HERE, stem + ".intervals.csv"), "w") as f:
        f.write("job,loop,t_start_ns,t_end_ns,read_iops,read_bw_bytes,write_iops,write_bw_bytes\n")
        for r in intervals:
            f.write("%s,1,%d,%d,%.1f,%d,%.1f,%d\n" % r)
    with open(os.path.join(HERE, stem + ".samples.csv"), "w") as f:
        f.write("t_ns,meter,v,a,w,flags\n")
        for ts, v, a, w in samples:
            f.write("%d,0,%.3f,%.4f,%.3f,\n" % (ns(ts), v, a, w))


for d in DEVICES:
    gen(d)
