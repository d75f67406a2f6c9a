"""A platform team's fleet in Python: one stack for many organizations, each with its own token through
`connection`, and per organization a Domain and webhooks on it. test/e2e/languages.test.ts runs it, and so
does `npm run bench:engine` with up to 30 organizations of 10 webhooks (tools/bench/python-fleet.mts).

Shaped by stack configuration:
- fleet: a JSON list of {"organization", "host"}; each organization's token is the secret
  `token-<organization>`;
- sandboxUrl, filesDir (required); webhookSecret (secret, required);
- hooks: how many webhooks each organization has (default 2).
"""
import json

import pulumi
import service_pulumi as service

config = pulumi.Config()
fleet = json.loads(config.require("fleet"))
base_url = config.require("sandboxUrl")
files_dir = config.require("filesDir")
secret_key = config.require_secret("webhookSecret")
hooks = config.get_int("hooks") or 2

for org in fleet:
    name = org["organization"]
    connection = service.ConnectionInputArgs(token=config.require_secret(f"token-{name}"), base_url=base_url)
    domain = service.Domain(
        f"{name}-domain",
        domain_name=org["host"],
        publish_directory=files_dir,
        timeout=30,
        connection=connection,
    )
    for i in range(hooks):
        service.Webhook(
            f"{name}-hook-{i}",
            endpoint=f"https://{org['host']}/service/events",
            secret_key=secret_key,
            channel=f"channel-{i}",
            connection=connection,
            filters=[service.WebhookFilterArgs(key="activity.name", value="authentication")],
            opts=pulumi.ResourceOptions(depends_on=[domain]),
        )
