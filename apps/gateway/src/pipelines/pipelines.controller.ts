import { Body, Controller, Get, HttpCode, Param, Patch, Post, UseGuards } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBasicAuth, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { AsyncJobStartResponseDto, PipelineAsyncRequestDto, PipelineDto, Subjects, UpdatePipelineDto } from '@docket/contracts';
import { RpcClient } from '@docket/messaging';
import { ApiErrors } from '../http/api-errors.decorator.js';
import { Auth, BasicAuthGuard, type AuthContext } from '../identity/index.js';

@ApiTags('Pipelines (legacy)')
@ApiBasicAuth()
@UseGuards(BasicAuthGuard)
@Controller()
export class PipelinesController {
  constructor(private readonly rpc: RpcClient) {}

  @Get('pipelines')
  @ApiOperation({
    summary: 'List pipelines',
    description:
      'Every account has a default pipeline (`is_default`), created on first use with the built-in `auto` template. Its `template_id` is the default for ' +
      'submissions without template_id or extraction_schema (also `POST /artifacts/upload`), its `webhook_id` the default webhook. Change them with `PATCH /pipelines/{pipeline_id}`.',
  })
  @ApiOkResponse({ type: [PipelineDto] })
  @ApiErrors(401)
  list(@Auth() auth: AuthContext): Promise<PipelineDto[]> {
    return this.rpc.request(Subjects.artifact.listPipelines, { accountId: auth.accountId });
  }

  @Patch('pipelines/:pipeline_id')
  @ApiOperation({
    summary: "Set a pipeline's defaults (extension)",
    description:
      'Not in the spec: sets the default template (a template of the account, the built-in `auto`, or null) and the default webhook (or null) used when a ' +
      'request names neither; also `name` and `is_active`. Omitted fields are unchanged. 404 when the pipeline, template or webhook does not exist in the account.',
  })
  @ApiParam({ name: 'pipeline_id', example: 'pipe_01jd3q8y4n6z2xk7m5t9w0abcd' })
  @ApiOkResponse({ type: PipelineDto })
  @ApiErrors(400, 401, 403, 404, 422)
  update(@Auth() auth: AuthContext, @Param('pipeline_id') pipelineId: string, @Body() body: UpdatePipelineDto): Promise<PipelineDto> {
    return this.rpc.request(Subjects.artifact.updatePipeline, { ...body, accountId: auth.accountId, pipelineId });
  }

  @Post('pipeline_async')
  @HttpCode(202)
  @ApiOperation({
    summary: 'Submit a file under a pipeline (legacy; prefer POST /extract)',
    description:
      "Like `POST /extract`, with the pipeline's template and webhook as defaults (`template_id`, `extraction_schema` and `webhook_id` override them). " +
      'The response has no `artifact_id`: read it from `GET /artifacts/`. Then PUT the bytes and confirm as for `/extract`. 404 when the pipeline is missing or inactive.',
  })
  @ApiAcceptedResponse({ type: AsyncJobStartResponseDto })
  @ApiErrors(400, 401, 402, 403, 404, 422)
  start(@Auth() auth: AuthContext, @Body() body: PipelineAsyncRequestDto): Promise<AsyncJobStartResponseDto> {
    return this.rpc.request(Subjects.artifact.createPipelineJob, {
      accountId: auth.accountId,
      sandbox: auth.sandbox,
      apiKeyId: auth.apiKeyId,
      request: body,
    });
  }
}
