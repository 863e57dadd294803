/** A provider module whose layer needs a service the command does not give modules (a file system). */
import * as FileSystem from "@effect/platform/FileSystem"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"

export const layer = Layer.effectDiscard(Effect.flatMap(FileSystem.FileSystem, (fs) => fs.exists("/")))
