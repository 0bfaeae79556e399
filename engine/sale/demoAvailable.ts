/** Whether the built-in demo lender exists in this process: never in a deployment, and only while no buyer documents are in use. */
import { isDeployment } from '../keys/sealing';
import { getBuyers } from './buyers';

export const demoLenderAvailable = (env: Record<string, string | undefined> = process.env): boolean => !isDeployment(env) && getBuyers(env).buyers.size === 0;
