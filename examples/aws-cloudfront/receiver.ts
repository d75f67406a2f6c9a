/**
 * The webhook receiver, run as a Lambda function behind CloudFront. createLambdaHandler accepts a delivery
 * only when Service-Signature matches one of the webhook secrets (several during a rotation), skips any
 * item whose update_counter is lower than the one already processed for that session, and answers 200
 * only once every other item has been processed, so that the service retries whatever failed.
 */

import type { CounterStore, FunctionUrlEvent, FunctionUrlResult, Snapshot } from "@service/pulumi/receiver";
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

/**
 * Your own processing of one item (a queue, a table, a workflow). Throw to have the delivery retried. It
 * sees an item again after a retry, so make it idempotent for a given service_id and update_counter.
 */
async function processItem(item: Snapshot, channel: string): Promise<void> {
  console.log(
    JSON.stringify({
      channel,
      kind: item.activity.name,
      service_id: item.service_id,
      update_counter: item.update_counter,
      result: item.status.result.id,
    }),
  );
}

/**
 * The handler, built on the first event and kept while the Lambda container lives, DynamoDB client
 * included. An object rather than a `let`: Pulumi's function serialization shares a captured object between
 * invocations but gives each invocation a fresh copy of a captured variable.
 */
const built: { receive?: (event: FunctionUrlEvent) => Promise<FunctionUrlResult> } = {};

export async function handler(event: LambdaFunctionURLEvent): Promise<LambdaFunctionURLResult> {
  if (!built.receive) {
    const { createLambdaHandler } =
      require("@service/pulumi/receiver") as typeof import("@service/pulumi/receiver");
    built.receive = createLambdaHandler({
      // During a rotation, WEBHOOK_SECRETS lists the old and the new webhook's secret.
      secrets: JSON.parse(process.env.WEBHOOK_SECRETS ?? "[]") as string[],
      store: dynamoCounterStore(process.env.COUNTERS_TABLE ?? ""),
      handleItem: (item, delivery) => processItem(item, delivery.channel),
    });
  }
  return built.receive(event);
}
