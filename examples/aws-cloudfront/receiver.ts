/**
 * The webhook receiver, run as a Lambda function behind CloudFront. It accepts a delivery only when
 * Service-Signature matches one of the webhook secrets (several during a rotation), and skips any item
 * whose update_counter is lower than the one already processed for that session.
 */

import type { CounterStore, DeliveredItem } from "@service/pulumi/receiver";
import type { LambdaFunctionURLEvent, LambdaFunctionURLResult } from "aws-lambda";

/** update_counter per session in DynamoDB. The write is conditional, so a late event never lowers it. */
export function dynamoCounterStore(tableName: string): CounterStore {
  // The Lambda runtime provides the AWS SDK; it is loaded when the function runs, not when Pulumi packages it.
  const { DynamoDBClient, GetItemCommand, PutItemCommand, ConditionalCheckFailedException } =
    require("@aws-sdk/client-dynamodb") as typeof import("@aws-sdk/client-dynamodb");
  const db = new DynamoDBClient({});
  return {
    async get(serviceId) {
      const out = await db.send(
        new GetItemCommand({ TableName: tableName, Key: { serviceId: { S: serviceId } } }),
      );
      const counter = out.Item?.updateCounter?.N;
      return counter === undefined ? undefined : Number(counter);
    },
    async set(serviceId, counter) {
      try {
        await db.send(
          new PutItemCommand({
            TableName: tableName,
            Item: { serviceId: { S: serviceId }, updateCounter: { N: String(counter) } },
            ConditionExpression: "attribute_not_exists(updateCounter) OR updateCounter <= :n",
            ExpressionAttributeValues: { ":n": { N: String(counter) } },
          }),
        );
      } catch (error) {
        if (!(error instanceof ConditionalCheckFailedException)) throw error;
      }
    },
  };
}

interface Delivery {
  readonly channel: string;
  readonly webhook_uuid: string;
  readonly items: (DeliveredItem & Record<string, unknown>)[];
}

export async function handler(event: LambdaFunctionURLEvent): Promise<LambdaFunctionURLResult> {
  const { UpdateCounterGuard, verifySignature } =
    require("@service/pulumi/receiver") as typeof import("@service/pulumi/receiver");
  const raw = Buffer.from(event.body ?? "", event.isBase64Encoded ? "base64" : "utf8");
  const secrets = JSON.parse(process.env.WEBHOOK_SECRETS ?? "[]") as string[];
  const check = verifySignature(raw, event.headers["service-signature"], secrets);
  if (!check.valid) {
    console.warn(`rejected delivery: ${check.reason}`);
    return { statusCode: 401, body: "invalid signature" };
  }
  const delivery = JSON.parse(raw.toString("utf8")) as Delivery;
  const guard = new UpdateCounterGuard(dynamoCounterStore(process.env.COUNTERS_TABLE ?? ""));
  for (const item of await guard.accept(delivery.items)) {
    // Hand the item to your own processing here (a queue, a table, a workflow).
    console.log(
      JSON.stringify({
        channel: delivery.channel,
        service_id: item.service_id,
        update_counter: item.update_counter,
      }),
    );
  }
  return { statusCode: 200, body: "ok" };
}
