export async function catalogCosts(_catalog: unknown): Promise<void> {}
