// GraphQL types and fields of this area (filled in by its capability).
export {};
