// SPDX-License-Identifier: GPL-2.0
/*
 * TimeSync on the wire: the SVC operations (wake pins, enable, disable,
 * authoritative, ping) and the Control ones (enable, disable,
 * authoritative, get last event).  The bodies are the same on both paths
 * (include/uapi/greybus/svc.h).
 */
#include <greybus/greybus.h>
#include <uapi/greybus/control.h>
#include <uapi/greybus/svc.h>

#include "timesync_priv.h"

static int gb_timesync_svc_sync(struct gb_svc *svc, u8 type, void *request,
				size_t request_size, void *response,
				size_t response_size)
{
	if (!svc->connection)
		return -ENODEV;

	return gb_operation_sync(svc->connection, type, request, request_size,
				 response, response_size);
}

int gb_timesync_svc_wake_pins_acquire(struct gb_svc *svc, u32 strobe_mask)
{
	struct gb_svc_timesync_wake_pins_acquire_request request = {
		.strobe_mask = cpu_to_le32(strobe_mask),
	};

	return gb_timesync_svc_sync(svc, GB_SVC_TYPE_TIMESYNC_WAKE_PINS_ACQUIRE,
				    &request, sizeof(request), NULL, 0);
}

int gb_timesync_svc_wake_pins_release(struct gb_svc *svc)
{
	return gb_timesync_svc_sync(svc, GB_SVC_TYPE_TIMESYNC_WAKE_PINS_RELEASE,
				    NULL, 0, NULL, 0);
}

static void gb_timesync_enable_body(struct gb_timesync_enable_request *req,
				    u8 count, u64 frame_time, u32 strobe_delay,
				    u32 refclk)
{
	req->count = count;
	req->frame_time = cpu_to_le64(frame_time);
	req->strobe_delay = cpu_to_le32(strobe_delay);
	req->refclk = cpu_to_le32(refclk);
}

int gb_timesync_svc_enable(struct gb_svc *svc, u8 count, u64 frame_time,
			   u32 strobe_delay, u32 refclk)
{
	struct gb_timesync_enable_request request;

	gb_timesync_enable_body(&request, count, frame_time, strobe_delay,
				refclk);

	return gb_timesync_svc_sync(svc, GB_SVC_TYPE_TIMESYNC_ENABLE,
				    &request, sizeof(request), NULL, 0);
}

int gb_timesync_svc_disable(struct gb_svc *svc)
{
	return gb_timesync_svc_sync(svc, GB_SVC_TYPE_TIMESYNC_DISABLE,
				    NULL, 0, NULL, 0);
}

int gb_timesync_svc_authoritative(struct gb_svc *svc, u64 *frame_time)
{
	struct gb_timesync_authoritative response;
	int ret;
	int i;

	ret = gb_timesync_svc_sync(svc, GB_SVC_TYPE_TIMESYNC_AUTHORITATIVE,
				   NULL, 0, &response, sizeof(response));
	if (ret)
		return ret;

	for (i = 0; i < GB_TIMESYNC_MAX_STROBES; i++)
		frame_time[i] = le64_to_cpu(response.frame_time[i]);

	return 0;
}

int gb_timesync_svc_ping(struct gb_svc *svc, u64 *frame_time)
{
	struct gb_timesync_frame_time response;
	int ret;

	ret = gb_timesync_svc_sync(svc, GB_SVC_TYPE_TIMESYNC_PING, NULL, 0,
				   &response, sizeof(response));
	if (ret)
		return ret;

	*frame_time = le64_to_cpu(response.frame_time);

	return 0;
}

int gb_timesync_control_enable(struct gb_control *control, u8 count,
			       u64 frame_time, u32 strobe_delay, u32 refclk)
{
	struct gb_timesync_enable_request request;

	gb_timesync_enable_body(&request, count, frame_time, strobe_delay,
				refclk);

	return gb_operation_sync(control->connection,
				 GB_CONTROL_TYPE_TIMESYNC_ENABLE,
				 &request, sizeof(request), NULL, 0);
}

int gb_timesync_control_disable(struct gb_control *control)
{
	return gb_operation_sync(control->connection,
				 GB_CONTROL_TYPE_TIMESYNC_DISABLE,
				 NULL, 0, NULL, 0);
}

int gb_timesync_control_authoritative(struct gb_control *control,
				      const u64 *frame_time)
{
	struct gb_timesync_authoritative request;
	int i;

	for (i = 0; i < GB_TIMESYNC_MAX_STROBES; i++)
		request.frame_time[i] = cpu_to_le64(frame_time[i]);

	return gb_operation_sync(control->connection,
				 GB_CONTROL_TYPE_TIMESYNC_AUTHORITATIVE,
				 &request, sizeof(request), NULL, 0);
}

int gb_timesync_control_get_last_event(struct gb_control *control,
				       u64 *frame_time)
{
	struct gb_timesync_frame_time response;
	int ret;

	ret = gb_operation_sync(control->connection,
				GB_CONTROL_TYPE_TIMESYNC_GET_LAST_EVENT,
				NULL, 0, &response, sizeof(response));
	if (ret)
		return ret;

	*frame_time = le64_to_cpu(response.frame_time);

	return 0;
}
