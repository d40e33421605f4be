import type { Bindings } from "../../env.ts";
import { resultMetadata } from "./keys.ts";
import type { ExportFormat } from "./operation.ts";

/** What a delivery's uploads record for its commit. */
interface UploadRecord {
  uploadId: string | null;
  /** Whether this delivery created the upload (it aborts it if its commit loses). */
  createdUpload: boolean;
  parts: R2UploadedPart[];
  uploaded: number;
}

/**
 * The parts one delivery uploads, numbered from the range it claimed (`first`, `count` numbers):
 * each starts once it is cut and runs while the next pages are read, at most one at a time, so R2
 * and D1 work side by side and at most two parts are in memory.
 */
export class PartUploads {
  private used = 0;
  private inFlight: Promise<R2UploadedPart> | undefined;

  constructor(
    private readonly env: Bindings,
    private readonly key: string,
    private readonly format: ExportFormat,
    private readonly record: UploadRecord,
    private readonly first: number,
    private readonly count: number,
  ) {}

  /** Part numbers this delivery has not used. */
  get left() {
    return this.count - this.used;
  }

  get started() {
    return this.used > 0;
  }

  async add(part: Uint8Array) {
    await this.settle();
    const record = this.record;
    if (!record.uploadId) {
      const created = await this.env.PAYLOADS.createMultipartUpload(this.key, {
        httpMetadata: resultMetadata(this.format),
      });
      record.uploadId = created.uploadId;
      record.createdUpload = true;
    }
    const upload = this.env.PAYLOADS.resumeMultipartUpload(this.key, record.uploadId).uploadPart(
      this.first + this.used,
      part,
    );
    // Awaited by `settle`; a page read failing meanwhile must not leave its rejection unhandled.
    upload.catch(() => undefined);
    this.inFlight = upload;
    this.used++;
    record.uploaded += part.length;
  }

  /** Waits for the part in flight and lists it. */
  async settle() {
    const upload = this.inFlight;
    this.inFlight = undefined;
    if (upload) this.record.parts.push(await upload);
  }
}
