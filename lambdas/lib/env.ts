/** Fail fast on configuration: a missing variable stops the cold start with its name. */
export const requireEnv = (name: string, env: NodeJS.ProcessEnv = process.env): string => {
  const value = env[name];
  if (value === undefined || value === '') throw new Error(`Missing environment variable ${name}`);
  return value;
};

export const optionalEnv = (name: string, env: NodeJS.ProcessEnv = process.env): string | undefined => {
  const value = env[name];
  return value === undefined || value === '' ? undefined : value;
};
