// SPDX-License-Identifier: GPL-2.0
/*
 * gb-pwm: the Greybus PWM protocol (0x09) as a pwm_chip, so the outputs
 * of a bridge module appear under /sys/class/pwm like any other.
 *
 * The module is told about every PWM the framework hands out (activate on
 * request, deactivate on free); apply() sends polarity, config and
 * enable/disable as the new state needs.  Each call holds a runtime-PM
 * reference on the gbphy device for its operations.
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/pwm.h>

#include <greybus/compat.h>
#include <greybus/greybus.h>
#include <greybus/gbphy.h>
#include <uapi/greybus/pwm.h>

/* The chip's private data, allocated with it by the PWM core */
struct gb_pwm {
	struct pwm_chip		*chip;
	struct gbphy_device	*gbphy_dev;
	struct gb_connection	*connection;
};

static inline struct gb_pwm *to_gb_pwm(struct pwm_chip *chip)
{
	return gb_pwmchip_priv(chip);
}

/* One operation on PWM @which, runtime-PM reference held around it */
static int gb_pwm_op(struct gb_pwm *gbpwm, u8 type, void *req, int len)
{
	struct gbphy_device *gbphy_dev = gbpwm->gbphy_dev;
	int ret;

	ret = gbphy_runtime_get_sync(gbphy_dev);
	if (ret)
		return ret;
	ret = gb_operation_sync(gbpwm->connection, type, req, len, NULL, 0);
	gbphy_runtime_put_autosuspend(gbphy_dev);
	if (ret)
		dev_err_ratelimited(&gbphy_dev->dev,
				    "pwm operation 0x%02x failed: %d\n",
				    type, ret);
	return ret;
}

static int gb_pwm_which_op(struct gb_pwm *gbpwm, u8 type, u8 which)
{
	struct gb_pwm_which_request req = { .which = which };

	return gb_pwm_op(gbpwm, type, &req, sizeof(req));
}

static int gb_pwm_request(struct pwm_chip *chip, struct pwm_device *pwm)
{
	return gb_pwm_which_op(to_gb_pwm(chip), GB_PWM_TYPE_ACTIVATE,
			       pwm->hwpwm);
}

static void gb_pwm_free(struct pwm_chip *chip, struct pwm_device *pwm)
{
	struct gb_pwm *gbpwm = to_gb_pwm(chip);

	if (pwm_is_enabled(pwm))
		dev_warn(&gbpwm->gbphy_dev->dev,
			 "pwm %u freed while enabled\n", pwm->hwpwm);
	gb_pwm_which_op(gbpwm, GB_PWM_TYPE_DEACTIVATE, pwm->hwpwm);
}

static int gb_pwm_apply(struct pwm_chip *chip, struct pwm_device *pwm,
			const struct pwm_state *state)
{
	struct gb_pwm *gbpwm = to_gb_pwm(chip);
	struct gb_pwm_polarity_request pol;
	struct gb_pwm_config_request cfg;
	u64 period = state->period, duty = state->duty_cycle;
	int ret;

	/* the wire carries 32-bit nanoseconds */
	if (period > U32_MAX)
		return -EINVAL;
	duty = min(duty, period);

	if (state->polarity != pwm->state.polarity) {
		/* the protocol changes polarity only while stopped */
		if (pwm->state.enabled) {
			ret = gb_pwm_which_op(gbpwm, GB_PWM_TYPE_DISABLE,
					      pwm->hwpwm);
			if (ret)
				return ret;
			pwm->state.enabled = false;
		}
		pol.which = pwm->hwpwm;
		pol.polarity = state->polarity == PWM_POLARITY_INVERSED ?
			       GB_PWM_POLARITY_INVERSED :
			       GB_PWM_POLARITY_NORMAL;
		ret = gb_pwm_op(gbpwm, GB_PWM_TYPE_POLARITY, &pol, sizeof(pol));
		if (ret)
			return ret;
	}

	if (!state->enabled) {
		if (pwm->state.enabled)
			return gb_pwm_which_op(gbpwm, GB_PWM_TYPE_DISABLE,
					       pwm->hwpwm);
		/* stopped: the module learns the timing at enable */
		return 0;
	}

	if (!pwm->state.enabled || duty != pwm->state.duty_cycle ||
	    period != pwm->state.period) {
		cfg.which = pwm->hwpwm;
		cfg.duty = cpu_to_le32((u32)duty);
		cfg.period = cpu_to_le32((u32)period);
		ret = gb_pwm_op(gbpwm, GB_PWM_TYPE_CONFIG, &cfg, sizeof(cfg));
		if (ret)
			return ret;
	}

	if (!pwm->state.enabled)
		return gb_pwm_which_op(gbpwm, GB_PWM_TYPE_ENABLE, pwm->hwpwm);
	return 0;
}

static const struct pwm_ops gb_pwm_ops = {
	.request	= gb_pwm_request,
	.free		= gb_pwm_free,
	.apply		= gb_pwm_apply,
	GB_PWM_OPS_OWNER
};

static int gb_pwm_probe(struct gbphy_device *gbphy_dev,
			const struct gbphy_device_id *id)
{
	struct gb_pwm_count_response rsp;
	struct gb_connection *connection;
	struct pwm_chip *chip;
	struct gb_pwm *gbpwm;
	int ret;

	/* no requests come from the module: no handler, no data */
	connection = gb_connection_create(gbphy_dev->bundle,
					  gbphy_cport_id(gbphy_dev), NULL);
	if (IS_ERR(connection))
		return PTR_ERR(connection);

	ret = gb_connection_enable(connection);
	if (ret)
		goto err_destroy;

	ret = gb_operation_sync(connection, GB_PWM_TYPE_PWM_COUNT, NULL, 0,
				&rsp, sizeof(rsp));
	if (ret) {
		dev_err_ratelimited(&gbphy_dev->dev,
				    "failed to get pwm count: %d\n", ret);
		goto err_disable;
	}

	/* the wire says count - 1 */
	chip = gb_pwmchip_alloc(&gbphy_dev->dev, rsp.count + 1, sizeof(*gbpwm));
	if (IS_ERR(chip)) {
		ret = PTR_ERR(chip);
		goto err_disable;
	}
	chip->ops = &gb_pwm_ops;
	gbpwm = to_gb_pwm(chip);
	gbpwm->chip = chip;
	gbpwm->gbphy_dev = gbphy_dev;
	gbpwm->connection = connection;
	gb_gbphy_set_data(gbphy_dev, gbpwm);

	ret = pwmchip_add(chip);
	if (ret) {
		dev_err(&gbphy_dev->dev, "failed to add pwm chip: %d\n", ret);
		goto err_put;
	}

	return 0;

err_put:
	gb_pwmchip_put(chip);
err_disable:
	gb_connection_disable(connection);
err_destroy:
	gb_connection_destroy(connection);
	return ret;
}

static void gb_pwm_remove(struct gbphy_device *gbphy_dev)
{
	struct gb_pwm *gbpwm = gb_gbphy_get_data(gbphy_dev);
	struct gb_connection *connection = gbpwm->connection;

	/* the chip, and gbpwm with it, may outlive this on a reference */
	pwmchip_remove(gbpwm->chip);
	gb_pwmchip_put(gbpwm->chip);
	gb_connection_disable(connection);
	gb_connection_destroy(connection);
}

static const struct gbphy_device_id gb_pwm_id_table[] = {
	{ GBPHY_PROTOCOL(GREYBUS_PROTOCOL_PWM) },
	{ },
};
MODULE_DEVICE_TABLE(gbphy, gb_pwm_id_table);
GBPHY_MODULE_ALIAS(GREYBUS_PROTOCOL_PWM);

static struct gbphy_driver gb_pwm_driver = {
	.name		= "gb-pwm",
	.probe		= gb_pwm_probe,
	.remove		= gb_pwm_remove,
	.id_table	= gb_pwm_id_table,
};
module_gbphy_driver(gb_pwm_driver);

MODULE_DESCRIPTION("Greybus PWM protocol driver");
MODULE_LICENSE("GPL");
MODULE_VERSION(GB_VERSION);
MODULE_IMPORT_NS(GREYBUS);
