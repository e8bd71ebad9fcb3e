import { Body, Controller, Get, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { ApiBasicAuth, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { CreateTemplateDto, Subjects, TemplateResponseDto } from '@docket/contracts';
import { RpcClient } from '@docket/messaging';
import { ApiErrors } from '../http/api-errors.decorator.js';
import { Auth, BasicAuthGuard, type AuthContext } from '../identity/index.js';

@ApiTags('Templates')
@ApiBasicAuth()
@UseGuards(BasicAuthGuard)
@Controller('templates')
export class TemplatesController {
  constructor(private readonly rpc: RpcClient) {}

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
  @ApiParam({ name: 'template_id', example: 'tpl_01jd3q8y4n6z2xk7m5t9w0abcd' })
  @ApiOkResponse({ type: TemplateResponseDto })
  @ApiErrors(401, 403, 404)
  get(@Auth() auth: AuthContext, @Param('template_id') templateId: string): Promise<TemplateResponseDto> {
    return this.rpc.request(Subjects.template.get, { accountId: auth.accountId, templateId });
  }
}
