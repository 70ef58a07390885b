// The layer's plain messages and tool declarations in the SDK's shapes, and the SDK's tool calls back.
import { jsonSchema, NoSuchToolError, tool, type JSONSchema7, type ModelMessage, type ToolSet, type TypedToolCall } from 'ai';
import type { ChatMessage, ChatToolCall, ToolDeclaration } from './chat-types.ts';

export function modelMessagesOf(messages: ChatMessage[]): ModelMessage[] {
  return messages.map((message): ModelMessage => {
    switch (message.role) {
      case 'system':
      case 'user':
        return { role: message.role, content: message.content };
      case 'assistant':
        if (!message.toolCalls?.length) return { role: 'assistant', content: message.content };
        return {
          role: 'assistant',
          content: [
            ...(message.content ? [{ type: 'text' as const, text: message.content }] : []),
            ...message.toolCalls.map((call) => ({ type: 'tool-call' as const, toolCallId: call.id, toolName: call.name, input: call.input })),
          ],
        };
      case 'tool':
        return {
          role: 'tool',
          content: [{
            type: 'tool-result',
            toolCallId: message.toolCallId,
            toolName: message.name,
            output: message.isError ? { type: 'error-json', value: message.output } : { type: 'json', value: message.output },
          }],
        };
    }
  });
}

/** tools without `execute`: the SDK hands their calls back instead of running them */
export function toolSetOf(declarations: ToolDeclaration[] | undefined): ToolSet | undefined {
  if (!declarations?.length) return undefined;
  return Object.fromEntries(declarations.map((d) => [d.name, tool({ description: d.description, inputSchema: jsonSchema(d.inputSchema as JSONSchema7) })]));
}

export function chatToolCallOf(call: TypedToolCall<ToolSet>): ChatToolCall {
  const plain: ChatToolCall = { id: call.toolCallId, name: call.toolName, input: call.input };
  if (call.invalid) plain.invalid = NoSuchToolError.isInstance(call.error) ? 'unknown_tool' : 'invalid_input';
  return plain;
}
