import { Body, Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBasicAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ExtractRequestDto, ExtractResponseDto, Subjects } from '@docket/contracts';
import { RpcClient } from '@docket/messaging';
import { ApiErrors } from '../http/api-errors.decorator.js';
import { Auth, BasicAuthGuard, type AuthContext } from '../identity/index.js';

@ApiTags('Extraction')
@ApiBasicAuth()
@UseGuards(BasicAuthGuard)
@Controller()
export class ExtractController {
  constructor(private readonly rpc: RpcClient) {}

  @Post('extract')
  @HttpCode(202)
  @ApiOperation({
    summary: 'Submit a file for extraction (step 1 of 4)',
    description:
      'Send the file descriptor, not the bytes. Then PUT the bytes to `upload_url` with `Content-Type` equal to `artifact_type`, ' +
      'call `POST /artifacts/{artifact_id}/confirm-upload`, and poll `GET /job/{job_id}` or wait for the webhook. ' +
      'Send exactly one of `template_id` or `extraction_schema`. A hold for the estimated cost is placed on the wallet.',
  })
  @ApiAcceptedResponse({ type: ExtractResponseDto })
  @ApiErrors(400, 401, 402, 404, 422, 429)
  extract(@Auth() auth: AuthContext, @Body() body: ExtractRequestDto): Promise<ExtractResponseDto> {
    return this.rpc.request(Subjects.artifact.createExtraction, {
      accountId: auth.accountId,
      sandbox: auth.sandbox,
      apiKeyId: auth.apiKeyId,
      request: body,
    });
  }
}
