export type { FieldProblem } from "../../contract/errors";
export type { AdviceContext, SettingAdvice } from "./advice";
export {
  ApiError,
  type ApiErrorFields,
  AuthenticationError,
  ConflictError,
  InvalidRequestError,
  NotFoundError,
  RateLimitError,
  ServerError,
  UnavailableError,
  UnexpectedStatusError,
  WebhooksNotEnabledError,
} from "./api";
export * from "./base";
export * from "./lifecycle";
export * from "./receiver";
export * from "./transport";
