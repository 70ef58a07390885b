// The failures both drivers report the same way, so callers need not know which one runs.

/** read / localCopy of a key that holds no (complete) object */
export class ObjectNotFoundError extends Error {
  readonly key: string;
  constructor(key: string) {
    super(`No object is stored under ${key}`);
    this.name = 'ObjectNotFoundError';
    this.key = key;
  }
}

/** A key, metadata entry or request the drivers refuse: a programming error of the caller, never user input. */
export class InvalidStorageInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidStorageInputError';
  }
}
