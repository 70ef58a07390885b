// GraphQL hands optional input fields to resolvers as undefined (absent) or null (explicit null).
// Services validate plain objects with zod, where the two mean different things per operation.

/** PATCH-style inputs: absent fields are dropped, an explicit null stays (it clears). */
export function suppliedFields<T extends object>(input: T): Partial<T> {
  return Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** Create/replace inputs: absent and null both mean "not given", so zod defaults apply. */
export function givenFields<T extends object>(input: T, keepNull: readonly string[] = []): Partial<T> {
  return Object.fromEntries(
    Object.entries(input).filter(([k, v]) => v !== undefined && (v !== null || keepNull.includes(k))),
  ) as Partial<T>;
}
