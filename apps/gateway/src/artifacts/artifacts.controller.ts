import { Controller, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { ApiBasicAuth, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { ArtifactRecordDto, Subjects } from '@docket/contracts';
import { RpcClient } from '@docket/messaging';
import { ApiErrors } from '../http/api-errors.decorator.js';
import { Auth, BasicAuthGuard, type AuthContext } from '../identity/index.js';

@ApiTags('Artifacts')
@ApiBasicAuth()
@UseGuards(BasicAuthGuard)
@Controller('artifacts')
export class ArtifactsController {
  constructor(private readonly rpc: RpcClient) {}

  @Post(':artifact_id/confirm-upload')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Confirm the upload and queue the job (step 3 of 4)',
    description: 'Verifies the object exists in storage, marks the artifact `uploaded` and queues the job. Repeating the call returns 200 without queueing again.',
  })
  @ApiParam({ name: 'artifact_id', example: 'art_01jd3q8y4n6z2xk7m5t9w0abcd' })
  @ApiOkResponse({ type: ArtifactRecordDto })
  @ApiErrors(401, 404, 409)
  confirm(@Auth() auth: AuthContext, @Param('artifact_id') artifactId: string): Promise<ArtifactRecordDto> {
    return this.rpc.request(Subjects.artifact.confirmUpload, { accountId: auth.accountId, artifactId });
  }
}
