// The realtime topic of upload statuses (graphql-ws `fileUploadStatus`): a client subscribes
// instead of polling GET /v1/file-uploads/{id}.

export interface FileUploadStatusEvent {
  fileUploadSimplyId: string;
  teamSimplyId: string;
  status: string;
}

declare module '../../app/pubsub/event-bus.ts' {
  interface Topics {
    /** upload simplyId → its status changes */
    fileUploadStatus: [string, FileUploadStatusEvent];
  }
}
