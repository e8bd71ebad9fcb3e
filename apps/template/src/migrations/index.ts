import { CreateTemplates1769130000000 } from './1769130000000-create-templates.js';

export const migrations = [CreateTemplates1769130000000];
