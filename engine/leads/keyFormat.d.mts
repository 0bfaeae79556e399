export declare const LEADS_KEY_ENV = 'LEADS_ENCRYPTION_KEY';
export declare const LEADS_KEYS_ENV = 'LEADS_ENCRYPTION_KEYS';
export declare class LeadKeyError extends Error {}
export declare const isDeployment: (env: Record<string, string | undefined>) => boolean;
export declare function parseLeadKeys(env: Record<string, string | undefined>): Buffer[];
export declare function leadKeyProblem(env: Record<string, string | undefined>): string | undefined;
