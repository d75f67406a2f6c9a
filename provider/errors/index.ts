export * from "./api";
export * from "./base";
export * from "./lifecycle";
export * from "./receiver";
export * from "./transport";
