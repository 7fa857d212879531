/**
 * gRPC server reflection (grpc/reflection/v1 and the older v1alpha that grpcurl 1.8 speaks; the
 * messages are the same), so `grpcurl list` and `describe` work without `-proto`. File
 * descriptors come from the generated code (protoc-gen-es embeds each file's FileDescriptorProto).
 */
import { createRegistry, toBinary, type DescFile } from '@bufbuild/protobuf';
import { FileDescriptorProtoSchema } from '@bufbuild/protobuf/wkt';
import { file_grpc_reflection_v1_reflection, ServerReflection as ReflectionV1, type ServerReflectionRequest } from '../gen/grpc/reflection/v1/reflection_pb.js';
import { file_grpc_reflection_v1alpha_reflection, ServerReflection as ReflectionV1alpha } from '../gen/grpc/reflection/v1alpha/reflection_pb.js';
import { routesOf, type Route } from './service.ts';
import { GrpcCode } from './status.ts';

type Request = Pick<ServerReflectionRequest, 'host' | 'messageRequest'>;

/** Routes of both reflection services, describing `files` (and the reflection services themselves). */
export function reflectionRoutes(files: DescFile[]): Map<string, Route> {
  const all = [...files, file_grpc_reflection_v1_reflection, file_grpc_reflection_v1alpha_reflection];
  const registry = createRegistry(...all);
  const fileByName = new Map(all.map((file) => [`${file.name}.proto`, file]));
  const services = all.flatMap((file) => file.services.map((service) => service.typeName));

  const encoded = (file: DescFile): Uint8Array[] => {
    const seen = new Set<string>();
    const out: Uint8Array[] = [];
    const visit = (f: DescFile) => {
      if (seen.has(f.name)) return;
      seen.add(f.name);
      out.push(toBinary(FileDescriptorProtoSchema, f.proto));
      f.dependencies.forEach(visit);
    };
    visit(file);
    return out;
  };

  const fileOfSymbol = (symbol: string): DescFile | undefined => {
    const found = registry.get(symbol);
    if (found) return found.file;
    // A method or field name: look up its parent.
    const parent = symbol.slice(0, Math.max(0, symbol.lastIndexOf('.')));
    const owner = parent ? registry.get(parent) : undefined;
    return owner?.file;
  };

  const answer = (request: Request) => {
    const base = { validHost: request.host, originalRequest: request };
    const notFound = (what: string) => ({
      ...base,
      messageResponse: { case: 'errorResponse' as const, value: { errorCode: GrpcCode.NOT_FOUND, errorMessage: `${what} not found` } },
    });
    const files = (file: DescFile | undefined, what: string) =>
      file ? { ...base, messageResponse: { case: 'fileDescriptorResponse' as const, value: { fileDescriptorProto: encoded(file) } } } : notFound(what);
    const message = request.messageRequest;
    switch (message.case) {
      case 'listServices':
        return { ...base, messageResponse: { case: 'listServicesResponse' as const, value: { service: services.map((name) => ({ name })) } } };
      case 'fileByFilename':
        return files(fileByName.get(message.value), `file ${message.value}`);
      case 'fileContainingSymbol':
        return files(fileOfSymbol(message.value), `symbol ${message.value}`);
      case 'fileContainingExtension':
        return notFound(`extension ${message.value.extensionNumber} of ${message.value.containingType}`);
      case 'allExtensionNumbersOfType':
        return { ...base, messageResponse: { case: 'allExtensionNumbersResponse' as const, value: { baseTypeName: message.value, extensionNumber: [] } } };
      default:
        return { ...base, messageResponse: { case: 'errorResponse' as const, value: { errorCode: GrpcCode.INVALID_ARGUMENT, errorMessage: 'empty reflection request' } } };
    }
  };

  async function* serverReflectionInfo(inputs: AsyncIterable<Request>) {
    for await (const request of inputs) yield answer(request);
  }
  // The two versions differ only in their package name; the answers are plain field objects.
  const v1 = routesOf(ReflectionV1, { serverReflectionInfo } as never);
  const v1alpha = routesOf(ReflectionV1alpha, { serverReflectionInfo } as never);
  return new Map([...v1, ...v1alpha]);
}
