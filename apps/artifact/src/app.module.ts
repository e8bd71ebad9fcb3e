import { Module, type DynamicModule } from '@nestjs/common';
import { RpcClient } from '@docket/messaging';
import { S3Storage } from '@docket/storage';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { ArtifactQueryService } from './artifacts/artifact-query.service.js';
import { ArtifactUpdateService } from './artifacts/artifact-update.service.js';
import { ArtifactsHandler } from './artifacts/artifacts.handler.js';
import { CancelService } from './artifacts/cancel.service.js';
import { BatchHandler } from './batch/batch.handler.js';
import { ConfirmBatchService } from './batch/confirm-batch.service.js';
import { CreateBatchService } from './batch/create-batch.service.js';
import { RerunService } from './artifacts/rerun.service.js';
import type { ArtifactConfig } from './config.js';
import { ConfirmUploadService } from './extraction/confirm-upload.service.js';
import { CreateExtractionService } from './extraction/create-extraction.service.js';
import { ExtractionHandler } from './extraction/extraction.handler.js';
import { SubmissionDefaultsService } from './extraction/submission-defaults.service.js';
import { ProcessingDeadlineService } from './expiry/processing-deadline.service.js';
import { UploadExpiryService } from './expiry/upload-expiry.service.js';
import { JobPagesService } from './jobs/job-pages.service.js';
import { JobProgressService } from './jobs/job-progress.service.js';
import { JobQueryService } from './jobs/job-query.service.js';
import { JobStorageService } from './jobs/job-storage.service.js';
import { JobsHandler } from './jobs/jobs.handler.js';
import { PipelineJobService } from './pipelines/pipeline-job.service.js';
import { PipelineService } from './pipelines/pipeline.service.js';
import { PipelinesHandler } from './pipelines/pipelines.handler.js';
import { MemoryHandler } from './memory/memory.handler.js';
import { MemoryService } from './memory/memory.service.js';
import { ReviewHandler } from './review/review.handler.js';
import { ReviewService } from './review/review.service.js';
import { RetentionPurgeService } from './retention/retention-purge.service.js';
import { CONFIG, LOGGER } from './tokens.js';

export interface ArtifactDeps {
  ds: DataSource;
  rpc: RpcClient;
  storage: S3Storage;
  cfg: ArtifactConfig;
  log: Logger;
}

@Module({})
export class ArtifactModule {
  static register(deps: ArtifactDeps): DynamicModule {
    return {
      module: ArtifactModule,
      controllers: [ExtractionHandler, JobsHandler, ArtifactsHandler, BatchHandler, PipelinesHandler, ReviewHandler, MemoryHandler],
      providers: [
        { provide: DataSource, useValue: deps.ds },
        { provide: RpcClient, useValue: deps.rpc },
        { provide: S3Storage, useValue: deps.storage },
        { provide: CONFIG, useValue: deps.cfg },
        { provide: LOGGER, useValue: deps.log },
        CreateExtractionService,
        ConfirmUploadService,
        JobQueryService,
        JobProgressService,
        JobPagesService,
        UploadExpiryService,
        ProcessingDeadlineService,
        ArtifactQueryService,
        ArtifactUpdateService,
        RerunService,
        CancelService,
        RetentionPurgeService,
        SubmissionDefaultsService,
        PipelineService,
        PipelineJobService,
        CreateBatchService,
        ConfirmBatchService,
        JobStorageService,
        ReviewService,
        MemoryService,
      ],
    };
  }
}
