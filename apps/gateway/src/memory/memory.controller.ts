import { Body, Controller, Delete, Get, HttpCode, Param, Put, Query, UseGuards } from '@nestjs/common';
import { ApiBasicAuth, ApiBody, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { ARTIFACT_PAGE_DEFAULT_SIZE, ExemplarPageDto, ExemplarQueryDto, MemorySettingsDto, Subjects } from '@docket/contracts';
import { RpcClient } from '@docket/messaging';
import { ApiErrors } from '../http/api-errors.decorator.js';
import { Auth, BasicAuthGuard, type AuthContext } from '../identity/index.js';

const EXEMPLAR_ID = { name: 'exemplar_id', example: 'lex_01jd3q8y4n6z2xk7m5t9w0abcd' };

/**
 * Layout memory (a Docket extension, ADR 0014): each corrected or approved result teaches the account where its
 * document's layout prints each value; a later document of the same layout has those fields read there. Never across
 * accounts. The exemplars are listed and deleted here, and the account can turn memory off.
 */
@ApiTags('Layout memory')
@ApiBasicAuth()
@UseGuards(BasicAuthGuard)
@Controller('memory')
export class MemoryController {
  constructor(private readonly rpc: RpcClient) {}

  @Get('exemplars')
  @ApiOperation({
    summary: 'The account’s layout exemplars, newest first',
    description:
      'Extension. One exemplar per corrected or approved job (a later confirmation of the same job replaces it), learned a moment after ' +
      'the confirmation: the fields whose place it remembers, and per field a digest of the label printed next to the value, where the ' +
      'value stands from it and its box as fractions of the page. No text of the document is kept: labels, identifiers (VAT ids, IBANs), ' +
      'header words and confirmed texts only as digests. ' +
      'At most 500 per account (the oldest go first). Deleting the artifact an exemplar was learned from deletes the exemplar.',
  })
  @ApiOkResponse({ type: ExemplarPageDto })
  @ApiErrors(401, 422, 429)
  list(@Auth() auth: AuthContext, @Query() q: ExemplarQueryDto): Promise<ExemplarPageDto> {
    return this.rpc.request(Subjects.artifact.listExemplars, {
      accountId: auth.accountId,
      page: q.page ?? 1,
      size: q.size ?? ARTIFACT_PAGE_DEFAULT_SIZE,
    });
  }

  @Delete('exemplars/:exemplar_id')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Forget one layout exemplar',
    description:
      'Extension. Later documents of its layout are read without it. Another account’s or an unknown id: 404 `exemplar_not_found`.',
  })
  @ApiParam(EXEMPLAR_ID)
  @ApiNoContentResponse({ description: 'Deleted; no body.' })
  @ApiErrors(401, 404, 422, 429)
  async delete(@Auth() auth: AuthContext, @Param('exemplar_id') exemplarId: string): Promise<void> {
    await this.rpc.request(Subjects.artifact.deleteExemplar, { accountId: auth.accountId, exemplarId });
  }

  @Get('settings')
  @ApiOperation({ summary: 'Whether layout memory is on for the account', description: 'Extension. On unless turned off.' })
  @ApiOkResponse({ type: MemorySettingsDto })
  @ApiErrors(401, 429)
  settings(@Auth() auth: AuthContext): Promise<MemorySettingsDto> {
    return this.rpc.request(Subjects.artifact.getMemorySettings, { accountId: auth.accountId });
  }

  @Put('settings')
  @ApiOperation({
    summary: 'Turn layout memory on or off for the account',
    description:
      'Extension. Off: corrections and approvals teach nothing and no exemplar is used for new jobs; the exemplars kept stay listed ' +
      '(delete them to forget them) and are used again when memory is turned back on.',
  })
  @ApiBody({ type: MemorySettingsDto })
  @ApiOkResponse({ type: MemorySettingsDto })
  @ApiErrors(401, 422, 429)
  update(@Auth() auth: AuthContext, @Body() body: MemorySettingsDto): Promise<MemorySettingsDto> {
    return this.rpc.request(Subjects.artifact.setMemorySettings, { accountId: auth.accountId, enabled: body.enabled });
  }
}
