//! Choosing where the heavy stages run: `--device auto|cpu|gpu`.
//!
//! `auto` uses a usable GPU and otherwise falls back to the CPU, saying so; `gpu`
//! insists and fails with a clear error; `cpu` never touches the GPU. Every stage that
//! may run on the GPU asks [`DeviceChoice::decide`] with its typed GPU result and acts
//! on the [`Decision`] through [`Decision::resolve`].

use crate::gpu::GpuError;

/// The `--device` choice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum DeviceChoice {
    /// The GPU when one is usable, else the CPU; `map` searches exactly on the CPU where
    /// it measured faster (few reads; it says so).
    Auto,
    /// The CPU only.
    Cpu,
    /// The GPU only; an error when none is usable.
    Gpu,
}

impl DeviceChoice {
    /// Decides where a stage runs: `cpu` never calls `try_gpu`; otherwise the GPU's
    /// result is used when `try_gpu` succeeds, and its error (kept typed, out of memory
    /// included) means the CPU under `auto` and a failure under `gpu`.
    pub fn decide<T>(self, try_gpu: impl FnOnce() -> Result<T, GpuError>) -> Decision<T> {
        if self == DeviceChoice::Cpu {
            return Decision::Cpu;
        }
        match try_gpu() {
            Ok(result) => Decision::Gpu(result),
            Err(e) if self == DeviceChoice::Gpu => Decision::Fail(e),
            Err(e) => Decision::Fallback(e),
        }
    }
}

/// Where a stage runs, from [`DeviceChoice::decide`].
#[derive(Debug)]
pub enum Decision<T> {
    /// On the GPU, with this result of trying it.
    Gpu(T),
    /// On the CPU, as `--device cpu` asks (the GPU was not tried).
    Cpu,
    /// On the CPU after this GPU error, under `--device auto`.
    Fallback(GpuError),
    /// Nowhere: the GPU failed with this error under `--device gpu`.
    Fail(GpuError),
}

/// A stage that `--device gpu` requires on the GPU failed there: the run fails.
#[derive(Debug, thiserror::Error)]
#[error("--device gpu: {0}")]
pub struct GpuRequiredError(pub GpuError);

impl<T> Decision<T> {
    /// The GPU's result, or `None` to go on with the CPU; a fallback is announced through
    /// `say` as `"{lead}: {error}; {on_cpu}"` (e.g. "GPU not used: ...; building on the
    /// CPU"), and a failure is the error `"--device gpu: {error}"`.
    pub fn resolve(
        self,
        lead: &str,
        on_cpu: &str,
        say: impl FnOnce(&str),
    ) -> Result<Option<T>, GpuRequiredError> {
        match self {
            Decision::Gpu(result) => Ok(Some(result)),
            Decision::Cpu => Ok(None),
            Decision::Fallback(e) => {
                say(&format!("{lead}: {e}; {on_cpu}"));
                Ok(None)
            }
            Decision::Fail(e) => Err(GpuRequiredError(e)),
        }
    }
}

/// The message of a fallback before a stage starts: the GPU is not used at all.
pub const NOT_USED: &str = "GPU not used";

#[cfg(test)]
mod tests {
    use super::*;

    fn out_of_memory() -> GpuError {
        GpuError::OutOfMemory {
            requested: 512,
            in_use: 1024,
        }
    }

    /// What `choice` makes of a GPU attempt that gives `result()`: the decision, and
    /// (deciding again) the outcome of resolving it, the messages said, and whether the
    /// GPU was tried.
    fn run(
        choice: DeviceChoice,
        result: impl Fn() -> Result<u32, GpuError>,
    ) -> (
        Decision<u32>,
        Result<Option<u32>, String>,
        Vec<String>,
        bool,
    ) {
        let mut tried = false;
        let decision = choice.decide(|| {
            tried = true;
            result()
        });
        let mut said = Vec::new();
        let resolved = choice
            .decide(&result)
            .resolve(NOT_USED, "building on the CPU", |m| {
                said.push(m.to_string())
            })
            .map_err(|e| e.to_string());
        (decision, resolved, said, tried)
    }

    #[test]
    fn cpu_never_tries_the_gpu() {
        let results: [fn() -> Result<u32, GpuError>; 3] = [
            || Ok(7),
            || Err(GpuError::NoDriver),
            || Err(out_of_memory()),
        ];
        for result in results {
            let (decision, resolved, said, tried) = run(DeviceChoice::Cpu, result);
            assert!(matches!(decision, Decision::Cpu));
            assert_eq!(resolved, Ok(None));
            assert!(said.is_empty() && !tried);
        }
    }

    #[test]
    fn a_working_gpu_is_used_under_auto_and_gpu() {
        for choice in [DeviceChoice::Auto, DeviceChoice::Gpu] {
            let (decision, resolved, said, tried) = run(choice, || Ok(7));
            assert!(matches!(decision, Decision::Gpu(7)));
            assert_eq!(resolved, Ok(Some(7)));
            assert!(said.is_empty() && tried);
        }
    }

    #[test]
    fn auto_falls_back_to_the_cpu_saying_why() {
        let (decision, resolved, said, _) = run(DeviceChoice::Auto, || Err(GpuError::NoDriver));
        assert!(matches!(decision, Decision::Fallback(GpuError::NoDriver)));
        assert_eq!(resolved, Ok(None));
        assert_eq!(
            said,
            ["GPU not used: no NVIDIA driver (libcuda.so not found); building on the CPU"]
        );
    }

    #[test]
    fn gpu_fails_with_the_gpu_error() {
        let (decision, resolved, said, _) = run(DeviceChoice::Gpu, || Err(GpuError::NoDriver));
        assert!(matches!(decision, Decision::Fail(GpuError::NoDriver)));
        assert_eq!(
            resolved,
            Err("--device gpu: no NVIDIA driver (libcuda.so not found)".into())
        );
        assert!(said.is_empty());
    }

    #[test]
    fn out_of_memory_stays_typed() {
        let oom = "out of GPU memory: 512 MiB requested with 1024 MiB in use";
        let (decision, resolved, said, _) = run(DeviceChoice::Auto, || Err(out_of_memory()));
        assert!(matches!(
            decision,
            Decision::Fallback(GpuError::OutOfMemory {
                requested: 512,
                in_use: 1024
            })
        ));
        assert_eq!(resolved, Ok(None));
        assert_eq!(said, [format!("GPU not used: {oom}; building on the CPU")]);
        let (decision, resolved, _, _) = run(DeviceChoice::Gpu, || Err(out_of_memory()));
        assert!(matches!(
            decision,
            Decision::Fail(GpuError::OutOfMemory { .. })
        ));
        assert_eq!(resolved, Err(format!("--device gpu: {oom}")));
    }
}
