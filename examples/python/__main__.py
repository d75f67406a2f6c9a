"""A Service webhook and the domain it delivers to.

The Domain proves control of the stack's `host`: it writes the verification file into `verificationDir`,
the folder the host serves as https://<host>/, and finishes the registration once the file is served.
The Webhook delivers authentications to the host, signed with the stack's `webhookSecret`, on a channel
named after the stack.

A stack that shares its `host` with another stack of the same organization (which registered it) sets
`adoptDomain: true`: its Domain then verifies nothing, and its destroy leaves the domain registered.
"""
import pulumi
import service_pulumi as service

config = pulumi.Config()

if config.get_bool("adoptDomain"):
    domain = service.Domain("hooks", domain_name=config.require("host"), adopt=True)
else:
    domain = service.Domain(
        "hooks",
        domain_name=config.require("host"),
        publish_directory=config.require("verificationDir"),
    )

authentications = service.Webhook(
    "authentications",
    endpoint=pulumi.Output.concat("https://", domain.domain_name, "/service/events"),
    secret_key=config.require_secret("webhookSecret"),
    channel=pulumi.get_stack(),
    filters=[service.WebhookFilterArgs(key="activity.name", value="authentication")],
    # The service accepts an endpoint only on a registered domain.
    opts=pulumi.ResourceOptions(depends_on=[domain]),
)

pulumi.export("domainUuid", domain.domain_uuid)
pulumi.export("webhookUuid", authentications.webhook_uuid)
