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
		// explicitProvider: an explicit Provider with the stack's settings, typed as the schema types them.
		var options []pulumi.ResourceOption
		if conf.GetBool("explicitProvider") {
			settings := config.New(ctx, "service")
			var overrides map[string]string
			settings.RequireObject("hostOverrides", &overrides)
			provider, err := service.NewProvider(ctx, "explicit", &service.ProviderArgs{
				Token:              settings.RequireSecret("token"),
				BaseUrl:            pulumi.StringPtr(settings.Require("baseUrl")),
				RetryBudgetSeconds: pulumi.Float64Ptr(30),
				HostOverrides:      pulumi.ToStringMap(overrides),
				AcceptLanguage:     service.AcceptLanguageEnglish,
			})
			if err != nil {
				return err
			}
			options = append(options, pulumi.Provider(provider))
		}
		domain, err := service.NewDomain(ctx, "hooks", &service.DomainArgs{
			DomainName:       pulumi.String(host),
			PublishDirectory: pulumi.String(conf.Require("filesDir")),
			Timeout:          pulumi.Float64(30),
		}, append([]pulumi.ResourceOption{}, options...)...)
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
		}, append(options, pulumi.DependsOn([]pulumi.Resource{domain}))...)
		if err != nil {
			return err
		}
		ctx.Export("domainUuid", domain.DomainUuid)
		ctx.Export("webhookUuid", webhook.WebhookUuid)
		return nil
	})
}
