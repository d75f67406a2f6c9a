export { type CounterStore, type DeliveredItem, isStale, UpdateCounterGuard } from "./ordering";
export { type SignatureCheck, verifySignature } from "./signature";
