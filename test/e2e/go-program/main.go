// A platform team's Go program: a verified Domain and a webhook that delivers to it.
package main

import (
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"

	"github.com/service-pulumi/service-pulumi/sdk/go/service"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		conf := config.New(ctx, "")
		host := conf.Require("host")
		// A stack setting changes it, to replace the webhook.
		channel := conf.Get("channel")
		if channel == "" {
			channel = "orders"
		}
		domain, err := service.NewDomain(ctx, "hooks", &service.DomainArgs{
			DomainName:       pulumi.String(host),
			PublishDirectory: pulumi.String(conf.Require("filesDir")),
			Timeout:          pulumi.Float64(30),
		})
		if err != nil {
			return err
		}
		webhook, err := service.NewWebhook(ctx, "orders", &service.WebhookArgs{
			Endpoint:  pulumi.Sprintf("https://%s/service/events", host),
			SecretKey: conf.RequireSecret("webhookSecret"),
			Channel:   pulumi.String(channel),
			Filters: service.WebhookFilterArray{
				service.WebhookFilterArgs{Key: pulumi.String("activity.name"), Value: pulumi.String("authentication")},
			},
		}, pulumi.DependsOn([]pulumi.Resource{domain}))
		if err != nil {
			return err
		}
		ctx.Export("domainUuid", domain.DomainUuid)
		ctx.Export("webhookUuid", webhook.WebhookUuid)
		return nil
	})
}
