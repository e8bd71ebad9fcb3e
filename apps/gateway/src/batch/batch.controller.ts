import { Body, Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBasicAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { BatchSubmitRequestDto, BatchSubmitResponseDto, Subjects } from '@docket/contracts';
import { RpcClient } from '@docket/messaging';
import { ApiErrors } from '../http/api-errors.decorator.js';
import { Auth, BasicAuthGuard, type AuthContext } from '../identity/index.js';

@ApiTags('Extraction')
@ApiBasicAuth()
@UseGuards(BasicAuthGuard)
@Controller()
export class BatchController {
  constructor(private readonly rpc: RpcClient) {}

  @Post('batch')
  @HttpCode(202)
  @ApiOperation({
    summary: 'Submit up to 50 files at once',
    description:
      'One artifact and one job per file, grouped by `batch_id` (also in webhook payloads). PUT each file to its own `upload_url`, ' +
      'then call `POST /artifacts/confirm-batch-upload/{batch_id}`; until then every job stays `pending`. The hold for the whole batch is ' +
      'placed at once: 402 means nothing was created. Filenames must be unique within the batch. Send at most one of `template_id` or ' +
      "`extraction_schema`; without either, the default pipeline's template applies.",
  })
  @ApiAcceptedResponse({ type: BatchSubmitResponseDto })
  @ApiErrors(400, 401, 402, 404, 422)
  submit(@Auth() auth: AuthContext, @Body() body: BatchSubmitRequestDto): Promise<BatchSubmitResponseDto> {
    return this.rpc.request(Subjects.artifact.createBatch, {
      accountId: auth.accountId,
      sandbox: auth.sandbox,
      apiKeyId: auth.apiKeyId,
      request: body,
    });
  }
}
