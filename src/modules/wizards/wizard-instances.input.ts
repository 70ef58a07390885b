// What the runs list takes besides paging (docs/api/data-wizards.md "Runs over the API"): the
// statuses a run can be in. Shared by the service, the GraphQL field and the REST table.
export const INSTANCE_STATUSES = ['RUNNING', 'COMPLETED', 'FAILED'] as const;
export type InstanceStatus = (typeof INSTANCE_STATUSES)[number];
