import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Query, UseGuards } from '@nestjs/common';
import { ApiBasicAuth, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import {
  CloneTemplateDto,
  CreateTemplateDto,
  DeleteTemplateQueryDto,
  ListTemplatesQueryDto,
  PatchTemplateSchemaDto,
  Subjects,
  TEMPLATE_CATEGORIES,
  TemplateResponseDto,
  UpdateTemplateDto,
} from '@docket/contracts';
import { RpcClient } from '@docket/messaging';
import { ApiErrors } from '../http/api-errors.decorator.js';
import { Auth, BasicAuthGuard, type AuthContext } from '../identity/index.js';

const TEMPLATE_ID = { name: 'template_id', example: 'tpl_01jd3q8y4n6z2xk7m5t9w0abcd' };

@ApiTags('Templates')
@ApiBasicAuth()
@UseGuards(BasicAuthGuard)
@Controller('templates')
export class TemplatesController {
  constructor(private readonly rpc: RpcClient) {}

  @Get()
  @ApiOperation({
    summary: "List the account's templates",
    description:
      'Archived templates are excluded unless `include_archived=true`. `search` is a case-insensitive prefix match on name and description.',
  })
  @ApiOkResponse({ type: [TemplateResponseDto] })
  @ApiErrors(401, 422)
  list(@Auth() auth: AuthContext, @Query() query: ListTemplatesQueryDto): Promise<TemplateResponseDto[]> {
    return this.rpc.request(Subjects.template.list, { accountId: auth.accountId, query });
  }

  // Declared before `:template_id` so "categories" is never read as an id.
  @Get('categories')
  @ApiOperation({ summary: 'Template categories', description: 'The canonical list; new categories can appear without a version change.' })
  @ApiOkResponse({ schema: { type: 'array', items: { type: 'string' }, example: [...TEMPLATE_CATEGORIES] } })
  @ApiErrors(401)
  categories(@Auth() auth: AuthContext): Promise<string[]> {
    return this.rpc.request(Subjects.template.categories, { accountId: auth.accountId });
  }

  @Post()
  @HttpCode(201)
  @ApiOperation({ summary: 'Create a template (status active, version 1)' })
  @ApiCreatedResponse({ type: TemplateResponseDto })
  @ApiErrors(400, 401, 422)
  create(@Auth() auth: AuthContext, @Body() body: CreateTemplateDto): Promise<TemplateResponseDto> {
    return this.rpc.request(Subjects.template.create, { accountId: auth.accountId, body });
  }

  @Get(':template_id')
  @ApiOperation({ summary: 'Get a template' })
  @ApiParam(TEMPLATE_ID)
  @ApiOkResponse({ type: TemplateResponseDto })
  @ApiErrors(401, 403, 404)
  get(@Auth() auth: AuthContext, @Param('template_id') templateId: string): Promise<TemplateResponseDto> {
    return this.rpc.request(Subjects.template.get, { accountId: auth.accountId, templateId });
  }

  @Put(':template_id')
  @ApiOperation({
    summary: 'Update a template (never its schema)',
    description:
      'Every field optional; omitted fields are unchanged. Status moves: draft→active, active→archived, archived→active. Use PATCH …/schema for fields.',
  })
  @ApiParam(TEMPLATE_ID)
  @ApiOkResponse({ type: TemplateResponseDto })
  @ApiErrors(400, 401, 403, 404, 422)
  update(
    @Auth() auth: AuthContext,
    @Param('template_id') templateId: string,
    @Body() body: UpdateTemplateDto,
  ): Promise<TemplateResponseDto> {
    return this.rpc.request(Subjects.template.update, { accountId: auth.accountId, templateId, body });
  }

  @Delete(':template_id')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Delete a template',
    description:
      'Soft by default: new jobs can no longer use it, existing jobs are unaffected. `hard_delete=true` removes it irreversibly and is refused (409) while an in-flight job uses it.',
  })
  @ApiParam(TEMPLATE_ID)
  @ApiNoContentResponse({ description: 'Deleted; no body.' })
  @ApiErrors(401, 403, 404, 409, 422)
  async delete(@Auth() auth: AuthContext, @Param('template_id') templateId: string, @Query() query: DeleteTemplateQueryDto): Promise<void> {
    await this.rpc.request(Subjects.template.delete, { accountId: auth.accountId, templateId, query });
  }

  @Patch(':template_id/schema')
  @ApiOperation({
    summary: 'Patch the template schema (version + 1)',
    description:
      '`add_fields` appends (400 if a key exists); `update_fields` replaces whole fields by key (404 if a key is missing); `remove_fields` deletes by key (missing keys ignored).',
  })
  @ApiParam(TEMPLATE_ID)
  @ApiOkResponse({ type: TemplateResponseDto })
  @ApiErrors(400, 401, 403, 404, 422)
  patchSchema(
    @Auth() auth: AuthContext,
    @Param('template_id') templateId: string,
    @Body() body: PatchTemplateSchemaDto,
  ): Promise<TemplateResponseDto> {
    return this.rpc.request(Subjects.template.patchSchema, { accountId: auth.accountId, templateId, body });
  }

  @Post(':template_id/clone')
  @HttpCode(201)
  @ApiOperation({
    summary: 'Clone a template into a new draft (version 1, fresh id and slug)',
    description: 'Default name: the original followed by " (clone)".',
  })
  @ApiParam(TEMPLATE_ID)
  @ApiCreatedResponse({ type: TemplateResponseDto })
  @ApiErrors(400, 401, 403, 404, 422)
  clone(@Auth() auth: AuthContext, @Param('template_id') templateId: string, @Body() body: CloneTemplateDto): Promise<TemplateResponseDto> {
    return this.rpc.request(Subjects.template.clone, { accountId: auth.accountId, templateId, body });
  }
}
