export type * from "../../contract/sessions/item-types";
export { isAuthentication, isFingerprint } from "../../contract/sessions/item-types";
export { InvalidSignatureError, MalformedDeliveryError } from "../errors/receiver";
export { type Delivery, type ParseDeliveryOptions, parseDelivery } from "./delivery";
export { createLambdaHandler, type FunctionUrlEvent, type FunctionUrlResult } from "./lambda";
export { createNodeHandler, DEFAULT_MAX_BODY_BYTES, type NodeHandlerOptions } from "./node";
export {
  type CounterStore,
  type DeliveredItem,
  isStale,
  MemoryCounterStore,
  UpdateCounterGuard,
} from "./ordering";
export { type ReceiveResult, type ReceiverFailure, type ReceiverOptions, receiveDelivery } from "./receive";
export { secretFingerprint } from "./secrets";
export { type SignatureCheck, verifySignature } from "./signature";
