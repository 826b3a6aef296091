/* SPDX-License-Identifier: MIT */
/* The key tables of what ran where: the tool, the host, the device and its bus, the filesystem, the target. */
#include <stddef.h>

#include "core/mem.h"
#include "result/result.h"
#include "result/result_schema.h"
#include "result/result_schema_rows.h"

#define T struct result_tool
static const struct result_field tool_fields[] = {
	FIELD(T, "name", name, RF_STR),
	FIELD(T, "version", version, RF_STR),
};
#undef T
SCHEMA(result_tool_schema, struct result_tool, tool_fields);

#define T struct result_host
static const struct result_field host_fields[] = {
	FIELD(T, "hostname", hostname, RF_STR),	FIELD(T, "board", board, RF_STR),
	FIELD(T, "kernel", kernel, RF_STR),	FIELD(T, "os", os, RF_STR),
	FIELD(T, "cpu", cpu, RF_STR),		FIELD(T, "cpus", cpus, RF_I64),
	FIELD(T, "memory_bytes", memory_bytes, RF_I64),
};
#undef T
static SCHEMA(host_schema, struct result_host, host_fields);

#define T struct result_usb
static const struct result_field usb_fields[] = {
	FIELD(T, "speed", speed, RF_STR),
	FIELD(T, "vid_pid", vid_pid, RF_STR),
	FIELD(T, "manufacturer", manufacturer, RF_STR),
	FIELD(T, "product", product, RF_STR),
	FIELD(T, "bridge_vid_pid", bridge_vid_pid, RF_STR),
	FIELD(T, "port", port, RF_STR),
	FIELD(T, "driver", driver, RF_STR),
};
#undef T
static SCHEMA(usb_schema, struct result_usb, usb_fields);

#define T struct result_pcie
static const struct result_field pcie_fields[] = {
	FIELD(T, "address", address, RF_STR),
	FIELD(T, "vid_pid", vid_pid, RF_STR),
	FIELD(T, "current_link_speed", current_link_speed, RF_STR),
	FIELD(T, "max_link_speed", max_link_speed, RF_STR),
	FIELD(T, "current_link_width", current_link_width, RF_I64),
	FIELD(T, "max_link_width", max_link_width, RF_I64),
};
#undef T
static SCHEMA(pcie_schema, struct result_pcie, pcie_fields);

#define T struct result_mmc
static const struct result_field mmc_fields[] = {
	FIELD(T, "cid", cid, RF_STR),	     FIELD(T, "name", name, RF_STR),
	FIELD(T, "manfid", manfid, RF_STR),  FIELD(T, "oemid", oemid, RF_STR),
	FIELD(T, "date", date, RF_STR),	     FIELD(T, "serial", serial, RF_STR),
	FIELD(T, "type", type, RF_STR),	     FIELD(T, "fwrev", fwrev, RF_STR),
	FIELD(T, "hwrev", hwrev, RF_STR),
};
#undef T
static SCHEMA(mmc_schema, struct result_mmc, mmc_fields);

#define T struct result_loop
static const struct result_field loop_fields[] = {
	FIELD(T, "backing_file", backing_file, RF_STR),
	FIELD(T, "direct_io", direct_io, RF_TRI),
};
#undef T
static SCHEMA(loop_schema, struct result_loop, loop_fields);

#define T struct result_health
static const struct result_field health_fields[] = {
	FIELD(T, "source", source, RF_STR),
	FIELD(T, "used_pct", used_pct, RF_I64),
	FIELD(T, "life_time_a", life_time_a, RF_I64),
	FIELD(T, "life_time_b", life_time_b, RF_I64),
	FIELD(T, "pre_eol_info", pre_eol_info, RF_I64),
	FIELD(T, "ext_csd_rev", ext_csd_rev, RF_I64),
	FIELD(T, "emmc_version", emmc_version, RF_STR),
	FIELD(T, "speed_class", speed_class, RF_STR),
	FIELD(T, "uhs_grade", uhs_grade, RF_STR),
	FIELD(T, "video_class", video_class, RF_STR),
	FIELD(T, "app_class", app_class, RF_STR),
	FIELD(T, "maker", maker, RF_STR),
	FIELD(T, "oem", oem, RF_STR),
	FIELD(T, "product", product, RF_STR),
	FIELD(T, "date", date, RF_STR),
	FIELD(T, "serial_hash", serial_hash, RF_STR),
	FIELD(T, "critical_warning", critical_warning, RF_I64),
	FIELD(T, "temperature_c", temperature_c, RF_I64),
	FIELD(T, "media_errors", media_errors, RF_I64),
	FIELD(T, "data_units_written", data_units_written, RF_I64),
	FIELD(T, "usb_protocol", usb_protocol, RF_STR),
	FIELD(T, "usb_speed", usb_speed, RF_STR),
	LIST(T, "missing", missing, nmissing, RF_STRS),
};
#undef T
static SCHEMA(health_schema, struct result_health, health_fields);

#define T struct result_power_mgmt
static const struct result_field power_mgmt_fields[] = {
	FIELD(T, "control", control, RF_STR),
	FIELD(T, "autosuspend_delay_ms", autosuspend_delay_ms, RF_I64),
	FIELD(T, "runtime_status", runtime_status, RF_STR),
	FIELD(T, "apst_enabled", apst_enabled, RF_TRI),
	FIELD(T, "apst_max_latency_us", apst_max_latency_us, RF_I64),
	FIELD(T, "power_state", power_state, RF_I64),
	LIST(T, "missing", missing, nmissing, RF_STRS),
};
#undef T
static SCHEMA(power_mgmt_schema, struct result_power_mgmt, power_mgmt_fields);

#define T struct result_device
static const struct result_field device_fields[] = {
	FIELD(T, "name", name, RF_STR),
	FIELD(T, "partition", partition, RF_STR),
	FIELD(T, "model", model, RF_STR),
	FIELD(T, "vendor", vendor, RF_STR),
	FIELD(T, "transport", transport, RF_STR),
	FIELD(T, "rotational", rotational, RF_TRI),
	FIELD(T, "size_bytes", size_bytes, RF_I64),
	FIELD(T, "logical_block_size", logical_block_size, RF_I64),
	FIELD(T, "physical_block_size", physical_block_size, RF_I64),
	FIELD(T, "usb", usb, RF_PTR, .sub = &usb_schema),
	FIELD(T, "pcie", pcie, RF_PTR, .sub = &pcie_schema),
	FIELD(T, "mmc", mmc, RF_PTR, .sub = &mmc_schema),
	FIELD(T, "loop", loop, RF_PTR, .sub = &loop_schema),
	FIELD(T, "health", health, RF_PTR, .sub = &health_schema, .absent = RF_OMIT),
	FIELD(T, "power_management", power_management, RF_PTR, .sub = &power_mgmt_schema,
	      .absent = RF_OMIT),
};
#undef T
static SCHEMA(device_schema, struct result_device, device_fields);

#define T struct result_filesystem
static const struct result_field filesystem_fields[] = {
	FIELD(T, "type", type, RF_STR),
	FIELD(T, "mount_point", mount_point, RF_STR),
	FIELD(T, "source", source, RF_STR),
	FIELD(T, "mount_options", mount_options, RF_STR),
};
#undef T
static SCHEMA(filesystem_schema, struct result_filesystem, filesystem_fields);

#define T struct result_target
static const struct result_field target_fields[] = {
	FIELD(T, "path", path, RF_STR),
	FIELD(T, "kind", kind, RF_STR),
	FIELD(T, "created", created, RF_BOOL),
};
#undef T
static SCHEMA(target_schema, struct result_target, target_fields);

#define T struct result_context
static const struct result_field context_fields[] = {
	FIELD(T, "host", host, RF_PTR, .sub = &host_schema, .absent = RF_OMIT),
	FIELD(T, "device", device, RF_PTR, .sub = &device_schema),
	FIELD(T, "filesystem", filesystem, RF_PTR, .sub = &filesystem_schema),
	FIELD(T, "target", target, RF_PTR, .sub = &target_schema),
};
#undef T
SCHEMA(result_context_schema, struct result_context, context_fields);
