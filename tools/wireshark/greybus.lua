-- SPDX-License-Identifier: GPL-2.0
--
-- Wireshark/tshark dissector for Greybus captures: pcapng files written by
-- gbmon -w (the kernel monitor) and by gbsim/gbnet --capture.  Link type
-- LINKTYPE_USER0 (147); each packet is a struct gb_mon_hdr (the monitor's
-- record header, include/uapi/greybus/monitor.h) then the Greybus message
-- as on the wire.  docs/gbmon.md describes the format.
--
-- Install: copy to ~/.local/lib/wireshark/plugins/ (or the system plugin
-- folder, where the greybus-tools package puts it), or use once with
-- tshark -X lua_script:greybus.lua -r FILE.pcapng -V
--
-- Every length is checked before a read: a packet too short for what it
-- claims is reported as malformed (expert info), never read past.

local gb = Proto("greybus", "Greybus")

-- BEGIN GENERATED NAMES (tools/wireshark/gen-names.sh)
local PROTOCOL_NAMES = {
	[0x00] = "control",
	[0x01] = "ap",
	[0x02] = "gpio",
	[0x03] = "i2c",
	[0x04] = "uart",
	[0x05] = "hid",
	[0x06] = "usb",
	[0x07] = "sdio",
	[0x08] = "power_supply",
	[0x09] = "pwm",
	[0x0b] = "spi",
	[0x0c] = "display",
	[0x0d] = "camera_mgmt",
	[0x0e] = "sensor",
	[0x0f] = "lights",
	[0x10] = "vibrator",
	[0x11] = "loopback",
	[0x12] = "audio_mgmt",
	[0x13] = "audio_data",
	[0x14] = "svc",
	[0x15] = "bootrom",
	[0x16] = "camera_data",
	[0x17] = "fw_download",
	[0x18] = "fw_mgmt",
	[0x19] = "cap",
	[0x1a] = "log",
	[0xfe] = "raw",
	[0xff] = "test",
}
local OP_NAMES = {
	[0x00] = {
		[0x00] = "cport_shutdown",
		[0x01] = "version",
		[0x02] = "probe_ap",
		[0x03] = "get_manifest_size",
		[0x04] = "get_manifest",
		[0x05] = "connected",
		[0x06] = "disconnected",
		[0x07] = "timesync_enable",
		[0x08] = "timesync_disable",
		[0x09] = "timesync_authoritative",
		[0x0b] = "bundle_version",
		[0x0c] = "disconnecting",
		[0x0d] = "timesync_get_last_event",
		[0x0e] = "mode_switch",
		[0x0f] = "bundle_suspend",
		[0x10] = "bundle_resume",
		[0x11] = "bundle_deactivate",
		[0x12] = "bundle_activate",
		[0x13] = "intf_suspend_prepare",
		[0x14] = "intf_deactivate_prepare",
		[0x15] = "intf_hibernate_abort",
		[0x7f] = "invalid",
	},
	[0x01] = {
		[0x00] = "cport_shutdown",
		[0x7f] = "invalid",
	},
	[0x02] = {
		[0x00] = "cport_shutdown",
		[0x02] = "line_count",
		[0x03] = "activate",
		[0x04] = "deactivate",
		[0x05] = "get_direction",
		[0x06] = "direction_in",
		[0x07] = "direction_out",
		[0x08] = "get_value",
		[0x09] = "set_value",
		[0x0a] = "set_debounce",
		[0x0b] = "irq_type",
		[0x0c] = "irq_mask",
		[0x0d] = "irq_unmask",
		[0x0e] = "irq_event",
		[0x7f] = "invalid",
	},
	[0x03] = {
		[0x00] = "cport_shutdown",
		[0x02] = "functionality",
		[0x05] = "transfer",
		[0x7f] = "invalid",
	},
	[0x04] = {
		[0x00] = "cport_shutdown",
		[0x02] = "send_data",
		[0x03] = "receive_data",
		[0x04] = "set_line_coding",
		[0x05] = "set_control_line_state",
		[0x06] = "send_break",
		[0x07] = "serial_state",
		[0x08] = "receive_credits",
		[0x09] = "flush_fifos",
		[0x7f] = "invalid",
	},
	[0x05] = {
		[0x00] = "cport_shutdown",
		[0x02] = "get_desc",
		[0x03] = "get_report_desc",
		[0x04] = "pwr_on",
		[0x05] = "pwr_off",
		[0x06] = "get_report",
		[0x07] = "set_report",
		[0x08] = "irq_event",
		[0x7f] = "invalid",
	},
	[0x06] = {
		[0x00] = "cport_shutdown",
		[0x7f] = "invalid",
	},
	[0x07] = {
		[0x00] = "cport_shutdown",
		[0x02] = "get_capabilities",
		[0x03] = "set_ios",
		[0x04] = "command",
		[0x05] = "transfer",
		[0x06] = "event",
		[0x7f] = "invalid",
	},
	[0x08] = {
		[0x00] = "cport_shutdown",
		[0x02] = "get_supplies",
		[0x03] = "get_description",
		[0x04] = "get_prop_descriptors",
		[0x05] = "get_property",
		[0x06] = "set_property",
		[0x07] = "event",
		[0x7f] = "invalid",
	},
	[0x09] = {
		[0x00] = "cport_shutdown",
		[0x02] = "pwm_count",
		[0x03] = "activate",
		[0x04] = "deactivate",
		[0x05] = "config",
		[0x06] = "polarity",
		[0x07] = "enable",
		[0x08] = "disable",
		[0x7f] = "invalid",
	},
	[0x0b] = {
		[0x00] = "cport_shutdown",
		[0x02] = "master_config",
		[0x03] = "device_config",
		[0x04] = "transfer",
		[0x7f] = "invalid",
	},
	[0x0c] = {
		[0x00] = "cport_shutdown",
		[0x7f] = "invalid",
	},
	[0x0d] = {
		[0x00] = "cport_shutdown",
		[0x7f] = "invalid",
	},
	[0x0e] = {
		[0x00] = "cport_shutdown",
		[0x7f] = "invalid",
	},
	[0x0f] = {
		[0x00] = "cport_shutdown",
		[0x02] = "get_lights",
		[0x03] = "get_light_config",
		[0x04] = "get_channel_config",
		[0x05] = "get_channel_flash_config",
		[0x06] = "set_brightness",
		[0x07] = "set_blink",
		[0x08] = "set_color",
		[0x09] = "set_fade",
		[0x0a] = "event",
		[0x7f] = "invalid",
	},
	[0x10] = {
		[0x00] = "cport_shutdown",
		[0x02] = "on",
		[0x03] = "off",
		[0x7f] = "invalid",
	},
	[0x11] = {
		[0x00] = "cport_shutdown",
		[0x02] = "ping",
		[0x03] = "transfer",
		[0x04] = "sink",
		[0x7f] = "invalid",
	},
	[0x12] = {
		[0x00] = "cport_shutdown",
		[0x02] = "get_topology_size",
		[0x03] = "get_topology",
		[0x04] = "get_control",
		[0x05] = "set_control",
		[0x06] = "enable_widget",
		[0x07] = "disable_widget",
		[0x08] = "get_pcm",
		[0x09] = "set_pcm",
		[0x0a] = "set_tx_data_size",
		[0x0c] = "activate_tx",
		[0x0d] = "deactivate_tx",
		[0x0e] = "set_rx_data_size",
		[0x10] = "activate_rx",
		[0x11] = "deactivate_rx",
		[0x12] = "jack_event",
		[0x13] = "button_event",
		[0x14] = "streaming_event",
		[0x7f] = "invalid",
	},
	[0x13] = {
		[0x00] = "cport_shutdown",
		[0x15] = "send_data",
		[0x7f] = "invalid",
	},
	[0x14] = {
		[0x00] = "cport_shutdown",
		[0x01] = "protocol_version",
		[0x02] = "svc_hello",
		[0x03] = "intf_device_id",
		[0x06] = "intf_reset",
		[0x07] = "conn_create",
		[0x08] = "conn_destroy",
		[0x09] = "dme_peer_get",
		[0x0a] = "dme_peer_set",
		[0x0b] = "route_create",
		[0x0c] = "route_destroy",
		[0x0d] = "timesync_enable",
		[0x0e] = "timesync_disable",
		[0x0f] = "timesync_authoritative",
		[0x10] = "intf_set_pwrm",
		[0x11] = "intf_eject",
		[0x13] = "ping",
		[0x14] = "pwrmon_rail_count_get",
		[0x15] = "pwrmon_rail_names_get",
		[0x16] = "pwrmon_sample_get",
		[0x17] = "pwrmon_intf_sample_get",
		[0x18] = "timesync_wake_pins_acquire",
		[0x19] = "timesync_wake_pins_release",
		[0x1a] = "timesync_ping",
		[0x1f] = "module_inserted",
		[0x20] = "module_removed",
		[0x21] = "intf_vsys_enable",
		[0x22] = "intf_vsys_disable",
		[0x23] = "intf_refclk_enable",
		[0x24] = "intf_refclk_disable",
		[0x25] = "intf_unipro_enable",
		[0x26] = "intf_unipro_disable",
		[0x27] = "intf_activate",
		[0x28] = "intf_resume",
		[0x29] = "intf_mailbox_event",
		[0x2a] = "intf_oops",
		[0x7f] = "invalid",
	},
	[0x15] = {
		[0x00] = "cport_shutdown",
		[0x01] = "version",
		[0x02] = "firmware_size",
		[0x03] = "get_firmware",
		[0x04] = "ready_to_boot",
		[0x05] = "ap_ready",
		[0x06] = "get_vid_pid",
		[0x7f] = "invalid",
	},
	[0x16] = {
		[0x00] = "cport_shutdown",
		[0x7f] = "invalid",
	},
	[0x17] = {
		[0x00] = "cport_shutdown",
		[0x01] = "find_firmware",
		[0x02] = "fetch_firmware",
		[0x03] = "release_firmware",
		[0x7f] = "invalid",
	},
	[0x18] = {
		[0x00] = "cport_shutdown",
		[0x01] = "interface_fw_version",
		[0x02] = "load_and_validate_fw",
		[0x03] = "loaded_fw",
		[0x04] = "backend_fw_version",
		[0x05] = "backend_fw_update",
		[0x06] = "backend_fw_updated",
		[0x7f] = "invalid",
	},
	[0x19] = {
		[0x00] = "cport_shutdown",
		[0x01] = "get_endpoint_uid",
		[0x02] = "get_ims_certificate",
		[0x03] = "authenticate",
		[0x7f] = "invalid",
	},
	[0x1a] = {
		[0x00] = "cport_shutdown",
		[0x02] = "send_log",
		[0x7f] = "invalid",
	},
	[0xfe] = {
		[0x00] = "cport_shutdown",
		[0x02] = "send",
		[0x7f] = "invalid",
	},
	[0xff] = {
		[0x00] = "cport_shutdown",
		[0x02] = "echo",
		[0x7f] = "invalid",
	},
}
-- END GENERATED NAMES

local RESULT_NAMES = {
	[0x00] = "success", [0x01] = "interrupted", [0x02] = "timeout",
	[0x03] = "no_memory", [0x04] = "protocol_bad", [0x05] = "overflow",
	[0x06] = "invalid", [0x07] = "retry", [0x08] = "nonexistent",
	[0x09] = "invalid_state", [0xfe] = "unknown_error",
	[0xff] = "malfunction",
}

local KIND_NAMES = {
	[1] = "message", [2] = "send error", [3] = "cancel", [4] = "lost",
}

local ID_NONE, CPORT_NONE = 0xff, 0xffff
local HDR_MIN = 56	-- the version 1 record header

-- The monitor's record header
local hf = {
	version = ProtoField.uint8("greybus.mon.version", "Record version"),
	kind = ProtoField.uint8("greybus.mon.kind", "Record kind", base.DEC, KIND_NAMES),
	hdr_len = ProtoField.uint16("greybus.mon.hdr_len", "Record header length"),
	flags = ProtoField.uint32("greybus.mon.flags", "Flags", base.HEX),
	f_in = ProtoField.bool("greybus.mon.flags.in", "Toward the AP", 32, nil, 0x01),
	f_rsp = ProtoField.bool("greybus.mon.flags.response", "Response", 32, nil, 0x02),
	f_cancel = ProtoField.bool("greybus.mon.flags.cancelled", "Cancelled", 32, nil, 0x04),
	f_err = ProtoField.bool("greybus.mon.flags.error", "Error status", 32, nil, 0x08),
	f_trunc = ProtoField.bool("greybus.mon.flags.truncated", "Truncated (snap length)", 32, nil, 0x10),
	f_malf = ProtoField.bool("greybus.mon.flags.malformed", "Framing wrong (short, size field)", 32, nil, 0x20),
	f_noconn = ProtoField.bool("greybus.mon.flags.no_connection", "No connection", 32, nil, 0x40),
	timestamp = ProtoField.uint64("greybus.mon.timestamp_ns", "Timestamp (ns)"),
	frame_time = ProtoField.uint64("greybus.mon.frame_time", "FrameTime"),
	lost = ProtoField.uint32("greybus.mon.lost", "Records lost before this one"),
	msg_len = ProtoField.uint32("greybus.mon.msg_len", "Message length"),
	cap_len = ProtoField.uint32("greybus.mon.cap_len", "Captured length"),
	host = ProtoField.uint16("greybus.host", "Host device (greybusN)"),
	hd_cport = ProtoField.uint16("greybus.hd_cport", "Host CPort"),
	cport = ProtoField.uint16("greybus.cport", "Interface CPort"),
	mon_id = ProtoField.uint16("greybus.mon.operation_id", "Operation id (record)"),
	intf = ProtoField.uint8("greybus.intf", "Interface"),
	bundle = ProtoField.uint8("greybus.bundle", "Bundle"),
	protocol = ProtoField.uint8("greybus.protocol", "Protocol", base.HEX, PROTOCOL_NAMES),
	mon_type = ProtoField.uint8("greybus.mon.type", "Type (record)", base.HEX),
	mon_result = ProtoField.uint8("greybus.mon.result", "Result (record)", base.HEX, RESULT_NAMES),
	status = ProtoField.int32("greybus.mon.status", "Status (negative errno)"),
	-- the operation message
	size = ProtoField.uint16("greybus.size", "Message size"),
	id = ProtoField.uint16("greybus.id", "Operation id", base.HEX),
	type = ProtoField.uint8("greybus.type", "Type", base.HEX),
	is_rsp = ProtoField.bool("greybus.response", "Response", 8, nil, 0x80),
	op = ProtoField.string("greybus.op", "Operation"),
	result = ProtoField.uint8("greybus.result", "Result", base.HEX, RESULT_NAMES),
	pad = ProtoField.uint16("greybus.pad", "Pad", base.HEX),
	payload = ProtoField.bytes("greybus.payload", "Payload"),
	phase = ProtoField.uint8("greybus.cport_shutdown.phase", "Phase"),
}

local ef = {
	malformed = ProtoExpert.new("greybus.malformed", "Malformed Greybus message",
				    expert.group.MALFORMED, expert.severity.ERROR),
	error = ProtoExpert.new("greybus.error", "Greybus error",
				expert.group.RESPONSE_CODE, expert.severity.WARN),
	lost = ProtoExpert.new("greybus.lost", "Monitor records lost",
			       expert.group.SEQUENCE, expert.severity.WARN),
}

--[[
The main fields of each protocol's operations, by protocol and operation
name (the names above): req/rsp lists of {field, size, display}.  size is
1, 2 or 4 (little-endian unsigned), "s32", a number with display "str"
(NUL-padded text), or "rest" (the remaining bytes).  A field named "_" is
skipped.  The same fields gbsim's log and gbmon show (tools/lib/decode).
--]]
local INTF = { "intf", 1 }
local RC1 = { rsp = { { "result_code", 1 } } }
local function intf_rc() return { req = { INTF }, rsp = { { "result_code", 1 } } } end

local SPEC = {
	svc = {
		protocol_version = { req = { { "major", 1 }, { "minor", 1 } }, rsp = { { "major", 1 }, { "minor", 1 } } },
		svc_hello = { req = { { "endo_id", 2, "hex" }, { "intf", 1 } } },
		intf_device_id = { req = { INTF, { "device_id", 1 } } },
		intf_reset = { req = { INTF } },
		intf_eject = { req = { INTF } },
		conn_create = { req = { { "intf1", 1 }, { "cport1", 2 }, { "intf2", 1 }, { "cport2", 2 },
					{ "tc", 1 }, { "flags", 1, "hex" } } },
		conn_destroy = { req = { { "intf1", 1 }, { "cport1", 2 }, { "intf2", 1 }, { "cport2", 2 } } },
		dme_peer_get = { req = { INTF, { "attr", 2, "hex" }, { "selector", 2 } },
				 rsp = { { "result_code", 2 }, { "attr_value", 4, "hex" } } },
		dme_peer_set = { req = { INTF, { "attr", 2, "hex" }, { "selector", 2 }, { "value", 4, "hex" } },
				 rsp = { { "result_code", 2 } } },
		route_create = { req = { { "intf1", 1 }, { "dev1", 1 }, { "intf2", 1 }, { "dev2", 1 } } },
		route_destroy = { req = { { "intf1", 1 }, { "intf2", 1 } } },
		intf_set_pwrm = { req = { INTF }, rsp = RC1.rsp },
		pwrmon_rail_count_get = { rsp = { { "rail_count", 1 } } },
		pwrmon_sample_get = { req = { { "rail", 1 }, { "measurement_type", 1 } },
				      rsp = { { "sample_result", 1 }, { "value", 4 } } },
		pwrmon_intf_sample_get = { req = { INTF, { "measurement_type", 1 } },
					   rsp = { { "sample_result", 1 }, { "value", 4 } } },
		module_inserted = { req = { { "primary_intf", 1 }, { "intf_count", 1 }, { "flags", 2, "hex" } } },
		module_removed = { req = { { "primary_intf", 1 } } },
		intf_vsys_enable = intf_rc(), intf_vsys_disable = intf_rc(),
		intf_refclk_enable = intf_rc(), intf_refclk_disable = intf_rc(),
		intf_unipro_enable = intf_rc(), intf_unipro_disable = intf_rc(),
		intf_activate = { req = { INTF }, rsp = { { "status", 1 }, { "intf_type", 1 } } },
		intf_resume = { req = { INTF }, rsp = { { "status", 1 } } },
		intf_mailbox_event = { req = { INTF, { "result_code", 2 }, { "mailbox", 4, "hex" } } },
		intf_oops = { req = { INTF, { "reason", 1 } } },
	},
	control = {
		version = { req = { { "major", 1 }, { "minor", 1 } }, rsp = { { "major", 1 }, { "minor", 1 } } },
		bundle_version = { req = { { "bundle", 1 } }, rsp = { { "major", 1 }, { "minor", 1 } } },
		get_manifest_size = { rsp = { { "size", 2 } } },
		get_manifest = { rsp = { { "manifest", "rest" } } },
		connected = { req = { { "cport", 2 } } },
		disconnected = { req = { { "cport", 2 } } },
		disconnecting = { req = { { "cport", 2 } } },
		bundle_suspend = { req = { { "bundle", 1 } }, rsp = { { "status", 1 } } },
		bundle_resume = { req = { { "bundle", 1 } }, rsp = { { "status", 1 } } },
		bundle_deactivate = { req = { { "bundle", 1 } }, rsp = { { "status", 1 } } },
		bundle_activate = { req = { { "bundle", 1 } }, rsp = { { "status", 1 } } },
		intf_suspend_prepare = { rsp = { { "status", 1 } } },
		intf_deactivate_prepare = { rsp = { { "status", 1 } } },
		intf_hibernate_abort = { rsp = { { "status", 1 } } },
	},
	gpio = {
		line_count = { rsp = { { "count", 1 } } },
		activate = { req = { { "which", 1 } } },
		deactivate = { req = { { "which", 1 } } },
		get_direction = { req = { { "which", 1 } }, rsp = { { "direction", 1 } } },
		direction_in = { req = { { "which", 1 } } },
		direction_out = { req = { { "which", 1 }, { "value", 1 } } },
		get_value = { req = { { "which", 1 } }, rsp = { { "value", 1 } } },
		set_value = { req = { { "which", 1 }, { "value", 1 } } },
		set_debounce = { req = { { "which", 1 }, { "usec", 2 } } },
		irq_type = { req = { { "which", 1 }, { "type", 1 } } },
		irq_mask = { req = { { "which", 1 } } },
		irq_unmask = { req = { { "which", 1 } } },
		irq_event = { req = { { "which", 1 } } },
	},
	i2c = {
		functionality = { rsp = { { "functionality", 4, "hex" } } },
		transfer = { req = { { "op_count", 2 }, { "ops", "rest" } }, rsp = { { "data", "rest" } } },
	},
	uart = {
		send_data = { req = { { "size", 2 }, { "data", "rest" } } },
		receive_data = { req = { { "size", 2 }, { "flags", 1, "hex" }, { "data", "rest" } } },
		receive_credits = { req = { { "count", 2 } } },
		set_line_coding = { req = { { "rate", 4 }, { "format", 1 }, { "parity", 1 },
					    { "data_bits", 1 }, { "flow_control", 1 } } },
		set_control_line_state = { req = { { "control", 1, "hex" } } },
		serial_state = { req = { { "control", 1, "hex" } } },
		send_break = { req = { { "state", 1 } } },
		flush_fifos = { req = { { "flags", 1, "hex" } } },
	},
	pwm = {
		pwm_count = { rsp = { { "count", 1 } } },
		activate = { req = { { "which", 1 } } },
		deactivate = { req = { { "which", 1 } } },
		config = { req = { { "which", 1 }, { "duty", 4 }, { "period", 4 } } },
		polarity = { req = { { "which", 1 }, { "polarity", 1 } } },
		enable = { req = { { "which", 1 } } },
		disable = { req = { { "which", 1 } } },
	},
	spi = {
		master_config = { rsp = { { "_", 16 }, { "num_chipselect", 1 } } },
		device_config = { req = { { "chip_select", 1 } } },
		transfer = { req = { { "chip_select", 1 }, { "mode", 1, "hex" }, { "count", 2 }, { "transfers", "rest" } },
			     rsp = { { "data", "rest" } } },
	},
	sdio = {
		set_ios = { req = { { "clock", 4 }, { "vdd", 4, "hex" }, { "bus_mode", 1 }, { "power_mode", 1 },
				    { "bus_width", 1 } } },
		command = { req = { { "cmd", 1 }, { "cmd_flags", 1, "hex" }, { "cmd_type", 1 }, { "cmd_arg", 4, "hex" },
				    { "data_blocks", 2 }, { "data_blksz", 2 } },
			    rsp = { { "resp0", 4, "hex" } } },
		transfer = { req = { { "data_flags", 1, "hex" }, { "data_blocks", 2 }, { "data_blksz", 2 } },
			     rsp = { { "data_blocks", 2 }, { "data_blksz", 2 } } },
		event = { req = { { "event", 1, "hex" } } },
	},
	hid = {
		get_desc = { rsp = { { "length", 1 }, { "report_desc_length", 2 }, { "hid_version", 2, "hex" },
				     { "product", 2, "hex" }, { "vendor", 2, "hex" }, { "country", 1 } } },
		get_report_desc = { rsp = { { "report_desc", "rest" } } },
		get_report = { req = { { "report_type", 1 }, { "report_id", 1 } }, rsp = { { "report", "rest" } } },
		set_report = { req = { { "report_type", 1 }, { "report_id", 1 }, { "report", "rest" } } },
		irq_event = { req = { { "report", "rest" } } },
	},
	lights = {
		get_lights = { rsp = { { "lights_count", 1 } } },
		get_light_config = { req = { { "light_id", 1 } } },
		get_channel_config = { req = { { "light_id", 1 }, { "channel_id", 1 } } },
		set_brightness = { req = { { "light_id", 1 }, { "channel_id", 1 }, { "brightness", 1 } } },
		set_blink = { req = { { "light_id", 1 }, { "channel_id", 1 }, { "time_on_ms", 2 }, { "time_off_ms", 2 } } },
		set_color = { req = { { "light_id", 1 }, { "channel_id", 1 }, { "color", 4, "hex" } } },
		event = { req = { { "light_id", 1 }, { "event", 1, "hex" } } },
	},
	power_supply = {
		get_supplies = { rsp = { { "supplies_count", 1 } } },
		get_description = { req = { { "psy_id", 1 } } },
		get_property_descriptors = { req = { { "psy_id", 1 } } },
		get_property = { req = { { "psy_id", 1 }, { "property", 1, "hex" } }, rsp = { { "prop_val", "s32" } } },
		set_property = { req = { { "psy_id", 1 }, { "property", 1, "hex" }, { "prop_val", "s32" } } },
		event = { req = { { "psy_id", 1 }, { "event", 1, "hex" } } },
	},
	audio_mgmt = {
		get_topology_size = { rsp = { { "size", 2 } } },
		get_topology = { rsp = { { "topology", "rest" } } },
		get_control = { req = { { "control_id", 1 }, { "index", 1 } } },
		set_control = { req = { { "control_id", 1 }, { "index", 1 }, { "value", "rest" } } },
	},
	loopback = {
		transfer = { req = { { "len", 4 }, { "_", 8 }, { "data", "rest" } },
			     rsp = { { "len", 4 }, { "unipro_us", 4 }, { "firmware_us", 4 }, { "data", "rest" } } },
		sink = { req = { { "len", 4 }, { "_", 8 }, { "data", "rest" } } },
	},
	fw_download = {
		find_firmware = { req = { { "firmware_tag", 10, "str" } }, rsp = { { "firmware_id", 1 }, { "size", 4 } } },
		fetch_firmware = { req = { { "firmware_id", 1 }, { "offset", 4 }, { "size", 4 } }, rsp = { { "data", "rest" } } },
		release_firmware = { req = { { "firmware_id", 1 } } },
	},
	fw_mgmt = {
		load_and_validate_fw = { req = { { "request_id", 1 }, { "load_method", 1 }, { "firmware_tag", 10, "str" } } },
		loaded_fw = { req = { { "request_id", 1 }, { "status", 1 } } },
		backend_fw_update = { req = { { "request_id", 1 }, { "firmware_tag", 10, "str" } } },
		backend_fw_updated = { req = { { "request_id", 1 }, { "status", 1 } } },
	},
	bootrom = {
		firmware_size = { req = { { "stage", 1 } }, rsp = { { "size", 4 } } },
		get_firmware = { req = { { "offset", 4 }, { "size", 4 } }, rsp = { { "data", "rest" } } },
		ready_to_boot = { req = { { "status", 1 } } },
	},
	log = { send_log = { req = { { "len", 2 }, { "msg", "rest" } } } },
	raw = { send = { req = { { "len", 4 }, { "data", "rest" } } } },
	test = { echo = { req = { { "data", "rest" } }, rsp = { { "data", "rest" } } } },
}

-- One ProtoField per protocol and field name: greybus.PROTOCOL.FIELD
local FIELDS = {}
local function field_of(pname, f)
	local key = pname .. "." .. f[1]
	if not FIELDS[key] then
		local abbr = "greybus." .. key
		if f[2] == "rest" then
			FIELDS[key] = ProtoField.bytes(abbr, f[1])
		elseif f[3] == "str" then
			FIELDS[key] = ProtoField.string(abbr, f[1])
		elseif f[2] == "s32" then
			FIELDS[key] = ProtoField.int32(abbr, f[1])
		else
			FIELDS[key] = ProtoField.uint32(abbr, f[1], f[3] == "hex" and base.HEX or base.DEC)
		end
	end
	return FIELDS[key]
end

for pname, ops in pairs(SPEC) do
	for _, op in pairs(ops) do
		for _, dir in ipairs({ "req", "rsp" }) do
			for _, f in ipairs(op[dir] or {}) do
				if f[1] ~= "_" then field_of(pname, f) end
			end
		end
	end
end

local all = {}
for _, f in pairs(hf) do all[#all + 1] = f end
for _, f in pairs(FIELDS) do all[#all + 1] = f end
gb.fields = all
gb.experts = { ef.malformed, ef.error, ef.lost }

local function size_of(f, left)
	if f[2] == "rest" then return left end
	if f[2] == "s32" then return 4 end
	return f[2]
end

-- The main fields of a payload at tvb(off, len); the summary for Info
local function dissect_fields(tvb, tree, off, len, pname, spec, summary)
	for _, f in ipairs(spec) do
		local n = size_of(f, len)
		if n > len then
			return string.format("%s needs %d more bytes, %d left", f[1], n, len)
		end
		if f[1] ~= "_" and n > 0 then
			local r = tvb(off, n)
			local pf = FIELDS[pname .. "." .. f[1]]
			if f[2] == "rest" then
				tree:add(pf, r)
			elseif f[3] == "str" then
				tree:add(pf, r)
				-- NUL-padded, maybe not NUL-terminated: text up to the first NUL
				local txt = r:string():gsub("%z.*", ""):gsub("[%c\128-\255]", "?")
				summary[#summary + 1] = f[1] .. "=" .. txt
			elseif f[2] == "s32" then
				tree:add_le(pf, r)
				summary[#summary + 1] = f[1] .. "=" .. r:le_int()
			else
				tree:add_le(pf, r)
				local v = r:le_uint()
				summary[#summary + 1] = f[1] .. "=" ..
					(f[3] == "hex" and string.format("0x%x", v) or tostring(v))
			end
		end
		off, len = off + n, len - n
	end
	return nil
end

local function malformed(tree, pinfo, tvb, text)
	tree:add_tvb_expert_info(ef.malformed, tvb, text)
	return text
end

function gb.dissector(tvb, pinfo, tree)
	pinfo.cols.protocol = "Greybus"
	local cap = tvb:len()
	local root = tree:add(gb, tvb())
	if cap < 4 then
		pinfo.cols.info = malformed(root, pinfo, tvb(), "malformed: record of " .. cap .. " bytes")
		return cap
	end
	local hlen = tvb(2, 2):le_uint()
	if hlen < HDR_MIN or hlen > cap then
		pinfo.cols.info = malformed(root, pinfo, tvb(),
			string.format("malformed: record header of %d bytes in %d", hlen, cap))
		return cap
	end

	local h = root:add(gb, tvb(0, hlen), "Monitor record")
	h:set_text("Monitor record")
	h:add(hf.version, tvb(0, 1))
	h:add(hf.kind, tvb(1, 1))
	h:add_le(hf.hdr_len, tvb(2, 2))
	local ft = h:add_le(hf.flags, tvb(4, 4))
	for _, k in ipairs({ "f_in", "f_rsp", "f_cancel", "f_err", "f_trunc", "f_malf", "f_noconn" }) do
		ft:add_le(hf[k], tvb(4, 4))
	end
	h:add_le(hf.timestamp, tvb(8, 8))
	h:add_le(hf.frame_time, tvb(16, 8))
	h:add_le(hf.lost, tvb(24, 4))
	h:add_le(hf.msg_len, tvb(28, 4))
	h:add_le(hf.cap_len, tvb(32, 4))
	h:add_le(hf.host, tvb(36, 2))
	h:add_le(hf.hd_cport, tvb(38, 2))
	h:add_le(hf.cport, tvb(40, 2))
	h:add_le(hf.mon_id, tvb(42, 2))
	h:add(hf.intf, tvb(44, 1))
	h:add(hf.bundle, tvb(45, 1))
	h:add(hf.protocol, tvb(46, 1))
	h:add(hf.mon_type, tvb(47, 1))
	h:add(hf.mon_result, tvb(48, 1))
	h:add_le(hf.status, tvb(52, 4))

	local kind = tvb(1, 1):uint()
	local flags = tvb(4, 4):le_uint()
	local lost = tvb(24, 4):le_uint()
	local msg_len = tvb(28, 4):le_uint()
	local host = tvb(36, 2):le_uint()
	local hd_cport = tvb(38, 2):le_uint()
	local icport = tvb(40, 2):le_uint()
	local intf, bundle, proto = tvb(44, 1):uint(), tvb(45, 1):uint(), tvb(46, 1):uint()
	-- no connection on that CPort: the protocol byte means nothing
	local pname = bit.band(tvb(4, 4):le_uint(), 0x40) == 0 and PROTOCOL_NAMES[proto] or nil
	local dir = (bit.band(flags, 1) ~= 0) and "<" or ">"
	local where
	if intf == ID_NONE then
		where = (pname == "svc" and "svc" or "hd") .. " cport " .. hd_cport
	elseif bundle == ID_NONE then
		where = string.format("intf %d cport %d", intf, icport)
	else
		where = string.format("intf %d.%d cport %d", intf, bundle, icport)
	end
	local info = { string.format("greybus%d %s %s", host, dir, where) }
	if lost > 0 then
		root:add_tvb_expert_info(ef.lost, tvb(24, 4), lost .. " records lost before this one")
		info[#info + 1] = "(" .. lost .. " lost)"
	end

	local msg = cap - hlen
	local declared = tvb(32, 4):le_uint()
	if declared ~= msg then
		info[#info + 1] = malformed(root, pinfo, tvb(32, 4),
			string.format("malformed: cap_len %d but %d bytes follow", declared, msg))
	end
	if kind ~= 1 then
		local optype = tvb(47, 1):uint()
		local oname = pname and (OP_NAMES[proto] or {})[bit.band(optype, 0x7f)]
		info[#info + 1] = string.format("%s %s.%s id=0x%04x status=%d",
			KIND_NAMES[kind] or ("kind " .. kind), pname or "unknown",
			oname or string.format("type_0x%02x", bit.band(optype, 0x7f)),
			tvb(42, 2):le_uint(), tvb(52, 4):le_int())
		if kind ~= 4 then root:add_tvb_expert_info(ef.error, tvb(0, hlen), info[#info]) end
		pinfo.cols.info = table.concat(info, " ")
		return cap
	end

	local m = root:add(gb, tvb(hlen, msg), "Operation message")
	m:set_text("Operation message")
	if msg < 8 and msg_len >= 8 and bit.band(flags, 0x10) ~= 0 then
		-- a snap length below the header: the record says which operation
		local optype = tvb(47, 1):uint()
		local ot = bit.band(optype, 0x7f)
		local on = pname and (OP_NAMES[proto] or {})[ot]
		info[#info + 1] = string.format("%s.%s %s id=0x%04x (%d of %d bytes captured)",
			pname or "unknown", on or string.format("type_0x%02x", ot),
			bit.band(optype, 0x80) ~= 0 and "rsp" or "req", tvb(42, 2):le_uint(), msg, msg_len)
		pinfo.cols.info = table.concat(info, " ")
		return cap
	end
	if msg < 8 or msg_len < 8 then
		info[#info + 1] = malformed(m, pinfo, tvb(hlen, msg),
			string.format("malformed: %d bytes, shorter than the 8-byte header", math.min(msg, msg_len)))
		pinfo.cols.info = table.concat(info, " ")
		return cap
	end
	local size = tvb(hlen, 2):le_uint()
	local id = tvb(hlen + 2, 2):le_uint()
	local type = tvb(hlen + 4, 1):uint()
	local result = tvb(hlen + 5, 1):uint()
	local rsp = bit.band(type, 0x80) ~= 0
	local t = bit.band(type, 0x7f)
	local oname = (t == 0 and "cport_shutdown") or (t == 0x7f and "invalid") or
		(pname and (OP_NAMES[proto] or {})[t])
	local full = (pname or "unknown") .. "." .. (oname or string.format("type_0x%02x", t))
	m:add_le(hf.size, tvb(hlen, 2))
	m:add_le(hf.id, tvb(hlen + 2, 2))
	local tt = m:add(hf.type, tvb(hlen + 4, 1))
	tt:add(hf.is_rsp, tvb(hlen + 4, 1))
	m:add(hf.op, tvb(hlen + 4, 1), full)
	m:add(hf.result, tvb(hlen + 5, 1))
	m:add_le(hf.pad, tvb(hlen + 6, 2))
	info[#info + 1] = string.format("%s %s id=0x%04x", full, rsp and "rsp" or "req", id)
	if rsp or result ~= 0 then
		info[#info + 1] = "result=" .. (RESULT_NAMES[result] or string.format("0x%02x", result))
		if result ~= 0 then
			m:add_tvb_expert_info(ef.error, tvb(hlen + 5, 1), "result " ..
				(RESULT_NAMES[result] or string.format("0x%02x", result)))
		end
	end
	if size < 8 then
		info[#info + 1] = malformed(m, pinfo, tvb(hlen, 2), string.format("malformed: size %d < 8-byte header", size))
		pinfo.cols.info = table.concat(info, " ")
		return cap
	end
	if size > msg_len then
		info[#info + 1] = malformed(m, pinfo, tvb(hlen, 2),
			string.format("malformed: size %d > %d received", size, msg_len))
		pinfo.cols.info = table.concat(info, " ")
		return cap
	end
	-- the payload: what the size field covers, of what was captured
	local plen = math.min(size, msg) - 8
	if plen > 0 then
		local p = m:add(hf.payload, tvb(hlen + 8, plen))
		local summary = {}
		local spec
		if t == 0 then
			spec = (not rsp) and { { "phase", 1 } } or nil
			if spec and plen >= 1 then
				p:add(hf.phase, tvb(hlen + 8, 1))
				summary[1] = "phase=" .. tvb(hlen + 8, 1):uint()
			end
			spec = nil
		elseif pname and oname and SPEC[pname] and SPEC[pname][oname] and not (rsp and result ~= 0) then
			spec = SPEC[pname][oname][rsp and "rsp" or "req"]
		end
		if spec then
			local bad = dissect_fields(tvb, p, hlen + 8, plen, pname, spec, summary)
			if bad and bit.band(flags, 0x10) == 0 then
				info[#info + 1] = malformed(p, pinfo, tvb(hlen + 8, plen),
					string.format("malformed: %s %s: %s", full, rsp and "response" or "request", bad))
			end
		end
		if #summary > 0 then info[#info + 1] = table.concat(summary, " ") end
	end
	pinfo.cols.info = table.concat(info, " ")
	return cap
end

DissectorTable.get("wtap_encap"):add((wtap_encaps or wtap).USER0, gb)
