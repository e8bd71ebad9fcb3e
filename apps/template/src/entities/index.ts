import { TemplateVersionEntity } from './template-version.entity.js';
import { TemplateEntity } from './template.entity.js';

export { TemplateEntity, TemplateVersionEntity };
export const entities = [TemplateEntity, TemplateVersionEntity];
