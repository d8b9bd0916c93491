/** What the model and the user read when an input request's answer came after it stopped waiting. */
export function inputExpiredError(toolName: string, expiresAt: number): string {
  return `The call to '${toolName}' ended without the user's input: nobody answered its input request before ${new Date(expiresAt).toISOString()}, so it was cancelled.`;
}
