"""One webhook through the provider plugin, changed by stack configuration one step at a time, as
`npm run bench:changes` measures it (the same settings as changes-program/index.js, but receiverAdmin).

The rotation is the pattern docs/receiver.md gives Python programs: a component of the type
service:index:SecretRotation that records the step, the webhook's name and the fingerprints of the
secrets the receiver holds, which `service-pulumi review` reads from a preview. The receiver here is
deployed apart from the program: the bench gives it the secrets before each `pulumi up`.
"""
import hashlib

import pulumi
import service_pulumi as service


def fingerprint(secret):
    """secretFingerprint of @service/pulumi/receiver: names a secret without revealing it."""
    return "sha256:" + hashlib.sha256(secret.encode()).hexdigest()[:8]


config = pulumi.Config()
step = config.get_int("rotationStep")
new_secret = config.require_secret("webhookSecret")
if step is not None:
    old_secret = config.require_secret("oldWebhookSecret") if step == 1 else None
    receiver_secrets = pulumi.Output.secret(
        pulumi.Output.all(new_secret, old_secret).apply(lambda s: list(s[:2] if step == 1 else s[:1]))
    )
    pulumi.ComponentResource(
        "service:index:SecretRotation",
        "orders-rotation",
        {
            "step": step,
            "webhook": "orders",
            "receiverHolds": pulumi.Output.unsecret(receiver_secrets.apply(lambda s: [fingerprint(x) for x in s])),
        },
    )
    pulumi.export("receiverSecrets", receiver_secrets)

form_factor = config.get("formFactor")
webhook = service.Webhook(
    "orders",
    endpoint=f"https://{config.require('host')}{config.require('path')}",
    secret_key=new_secret,
    channel=config.require("channel"),
    filters=[
        service.WebhookFilterArgs(key="activity.name", value="authentication"),
        *([service.WebhookFilterArgs(key="activity.form_factor", value=form_factor)] if form_factor else []),
    ],
    opts=pulumi.ResourceOptions(delete_before_replace=config.get_bool("deleteBeforeReplace") or False),
)
pulumi.export("webhookUuid", webhook.webhook_uuid)
