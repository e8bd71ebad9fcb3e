import { Body, Controller, Get, HttpCode, Post, UseGuards } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBasicAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AsyncJobStartResponseDto, PipelineAsyncRequestDto, PipelineDto, Subjects } from '@docket/contracts';
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
  @ApiOperation({ summary: 'List pipelines', description: 'Every account has a default pipeline, created on first use. Its template is the default for submissions without template_id or extraction_schema.' })
  @ApiOkResponse({ type: [PipelineDto] })
  @ApiErrors(401)
  list(@Auth() auth: AuthContext): Promise<PipelineDto[]> {
    return this.rpc.request(Subjects.artifact.listPipelines, { accountId: auth.accountId });
  }

  @Post('pipeline_async')
  @HttpCode(202)
  @ApiOperation({
    summary: 'Submit a file under a pipeline (legacy; prefer POST /extract)',
    description:
      'Like `POST /extract`, with the pipeline\'s template and webhook as defaults (`template_id`, `extraction_schema` and `webhook_id` override them). ' +
      'The response has no `artifact_id`: read it from `GET /artifacts/`. Then PUT the bytes and confirm as for `/extract`. 404 when the pipeline is missing or inactive.',
  })
  @ApiAcceptedResponse({ type: AsyncJobStartResponseDto })
  @ApiErrors(400, 401, 402, 403, 404, 422)
  start(@Auth() auth: AuthContext, @Body() body: PipelineAsyncRequestDto): Promise<AsyncJobStartResponseDto> {
    return this.rpc.request(Subjects.artifact.createPipelineJob, { accountId: auth.accountId, sandbox: auth.sandbox, apiKeyId: auth.apiKeyId, request: body });
  }
}
