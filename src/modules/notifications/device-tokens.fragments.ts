// GraphQL selections of push-token registration, used by the REST table and tests.
export const DEVICE_TOKEN_REGISTRATION = 'deviceTokenSimplyId created refreshed';
